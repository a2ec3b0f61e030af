import { ApiProperty } from '@nestjs/swagger';
import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Comment } from '../comments/comment.entity';
import { Project } from '../projects/project.entity';

export const TASK_STATE_VALUES = ['todo', 'doing', 'done'] as const;
export type TaskState = (typeof TASK_STATE_VALUES)[number];

@Entity('tasks')
export class Task {
  @ApiProperty({ type: 'integer' })
  @PrimaryGeneratedColumn()
  id!: number;

  @ApiProperty()
  @Column({ type: 'text' })
  title!: string;

  @ApiProperty({ default: false })
  @Column({ type: 'boolean', default: false })
  done!: boolean;

  @ApiProperty({ type: 'string', format: 'decimal', nullable: true, example: '12.5' })
  @Column({ type: 'numeric', precision: 6, scale: 1, nullable: true })
  estimate!: string | null;

  @ApiProperty({ enum: TASK_STATE_VALUES, default: 'todo' })
  @Column({ type: 'enum', enum: TASK_STATE_VALUES, default: 'todo' })
  state!: TaskState;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  dueAt!: Date | null;

  @ApiProperty({ type: 'integer', nullable: true })
  @Column({ type: 'integer', nullable: true })
  rank!: number | null;

  @ApiProperty({ nullable: true, description: 'Any JSON value' })
  @Column({ type: 'jsonb', nullable: true })
  labels!: unknown;

  @ApiProperty({ type: 'integer', nullable: true })
  @Column({ type: 'integer', nullable: true })
  projectId!: number | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  created_at!: Date;

  @ManyToOne(() => Project, (project) => project.tasks, { nullable: true, onDelete: 'SET NULL' })
  @JoinColumn({ name: 'projectId' })
  project?: Relation<Project> | null;

  @OneToMany(() => Comment, (comment) => comment.task)
  comments?: Comment[];
}
