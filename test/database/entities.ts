import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';

@Entity('projects')
@Check('"budget" > 0')
export class Project {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'text', unique: true }) name!: string;
  @Column({ type: 'varchar', length: 3, nullable: true }) code?: string | null;
  @Column({ type: 'integer', nullable: true }) budget?: number | null;
  @Column({ type: 'timestamptz', nullable: true }) startsAt?: Date | null;
  @Column({ type: 'numeric', precision: 10, scale: 2, nullable: true }) price?: string | null;
  @Column({ type: 'bigint', nullable: true }) big?: string | null;
  @Column({ type: 'jsonb', nullable: true }) meta?: Record<string, unknown> | null;
}

@Entity('tasks')
export class Task {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') title!: string;
  @Column('integer') projectId!: number;
  @ManyToOne(() => Project, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'projectId' })
  project?: Project;
}

@Entity('accounts')
@Unique(['organizationId', 'email'])
export class Account {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column('integer') organizationId!: number;
  @Column('text') email!: string;
  @Column('text') passwordHash!: string;
}

export const ENTITIES = [Project, Task, Account];
