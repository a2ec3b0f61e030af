import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule, InjectRepository } from '@nestjs/typeorm';
import { Column, Entity, PrimaryGeneratedColumn, Repository } from 'typeorm';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import request from 'supertest';

@Entity('things')
class Thing { @PrimaryGeneratedColumn() id!: number; @Column('text') name!: string; }

@Controller('things')
class ThingController {
  constructor(@InjectRepository(Thing) private readonly repo: Repository<Thing>) {}
  @Get() async list() { await this.repo.save({ name: 'a' }); return this.repo.find(); }
}

describe('stack', () => {
  it('serves a PGlite-backed entity', async () => {
    const pglite = new PGlite();
    @Module({ imports: [TypeOrmModule.forRoot({ type: 'postgres', entities: [Thing], synchronize: true, extra: { ...createPgConfig(pglite), max: 1 } } as never), TypeOrmModule.forFeature([Thing])], controllers: [ThingController] })
    class AppModule {}
    const ref = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = ref.createNestApplication();
    await app.init();
    const res = await request(app.getHttpServer()).get('/things');
    expect(res.body).toEqual([{ id: 1, name: 'a' }]);
    await app.close();
    await pglite.close();
  });
});
