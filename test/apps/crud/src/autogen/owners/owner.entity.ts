import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { Project } from '../projects/project.entity';

@Entity('owners')
export class Owner {
  @ApiProperty({ type: 'integer' })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty()
  @Column({ type: 'text' })
  name!: string;

  @ApiProperty({ format: 'email' })
  @Column({ type: 'text', unique: true })
  email!: string;

  @OneToMany(() => Project, (project) => project.owner)
  projects?: Project[];
}
