import { ApiProperty } from '@nestjs/swagger';
import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { Owner } from '../owners/owner.entity';
import { Task } from '../tasks/task.entity';

export const PROJECT_STATUS_VALUES = ['active', 'paused', 'archived'] as const;
export type ProjectStatus = (typeof PROJECT_STATUS_VALUES)[number];

@Entity('projects')
export class Project {
  @ApiProperty({ type: 'integer' })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty()
  @Column({ type: 'text', unique: true })
  name!: string;

  @ApiProperty({ enum: PROJECT_STATUS_VALUES, default: 'active' })
  @Column({ type: 'enum', enum: PROJECT_STATUS_VALUES, default: 'active' })
  status!: ProjectStatus;

  @ApiProperty({ type: 'string', format: 'decimal', nullable: true, example: '12.50' })
  @Column({ type: 'numeric', precision: 12, scale: 2, nullable: true })
  budget!: string | null;

  @ApiProperty({ type: 'integer', default: 0 })
  @Column({ type: 'integer', default: 0 })
  priority!: number;

  @ApiProperty({ default: false })
  @Column({ type: 'boolean', default: false })
  public!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  startsAt!: Date | null;

  @ApiProperty({ nullable: true, description: 'Any JSON value' })
  @Column({ type: 'jsonb', nullable: true })
  meta!: unknown;

  @ApiProperty({ nullable: true })
  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  @Column({ type: 'integer', nullable: true })
  ownerId!: number | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  created_at!: Date;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @UpdateDateColumn({ type: 'timestamptz', precision: 3 })
  updated_at!: Date;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  @DeleteDateColumn({ type: 'timestamptz', precision: 3, nullable: true })
  deleted_at!: Date | null;

  @ManyToOne(() => Owner, (owner) => owner.projects, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'ownerId' })
  owner?: Relation<Owner> | null;

  @OneToMany(() => Task, (task) => task.project)
  tasks?: Task[];
}
