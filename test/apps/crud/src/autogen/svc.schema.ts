import type { SvcrcV2 } from '@svc/nest';

export const svcSchema: SvcrcV2 = {
  version: 2,
  language: 'typescript',
  rootFolder: 'src',
  api: {
    pagination: {
      defaultLimit: 10,
      maxLimit: 50,
      alwaysPaginate: true,
    },
    bodyLimit: '64kb',
    put: 'replace',
  },
  entities: [
    {
      name: 'Owner',
      fields: [
        {
          name: 'name',
          type: 'text',
        },
        {
          name: 'email',
          type: 'text',
          is_email: true,
          unique: true,
        },
      ],
    },
    {
      name: 'Project',
      created_at: true,
      updated_at: true,
      softDelete: true,
      fields: [
        {
          name: 'name',
          type: 'text',
          unique: true,
        },
        {
          name: 'status',
          type: 'enum',
          values: ['active', 'paused', 'archived'],
          default: 'active',
        },
        {
          name: 'budget',
          type: 'decimal',
          precision: 12,
          scale: 2,
          nullable: true,
        },
        {
          name: 'priority',
          type: 'integer',
          default: 0,
        },
        {
          name: 'public',
          type: 'boolean',
          default: false,
        },
        {
          name: 'startsAt',
          type: 'timestamptz',
          nullable: true,
        },
        {
          name: 'meta',
          type: 'json',
          nullable: true,
        },
        {
          name: 'description',
          type: 'text',
          nullable: true,
        },
      ],
    },
    {
      name: 'Task',
      created_at: true,
      fields: [
        {
          name: 'title',
          type: 'text',
        },
        {
          name: 'done',
          type: 'boolean',
          default: false,
        },
        {
          name: 'estimate',
          type: 'decimal',
          precision: 6,
          scale: 1,
          nullable: true,
        },
        {
          name: 'state',
          type: 'enum',
          values: ['todo', 'doing', 'done'],
          default: 'todo',
        },
        {
          name: 'dueAt',
          type: 'timestamptz',
          nullable: true,
        },
        {
          name: 'rank',
          type: 'integer',
          nullable: true,
        },
        {
          name: 'labels',
          type: 'json',
          nullable: true,
        },
      ],
      joins: ['project', 'project.owner', 'comments'],
    },
    {
      name: 'Comment',
      fields: [
        {
          name: 'body',
          type: 'text',
        },
      ],
    },
    {
      name: 'LoanItem',
      fields: [
        {
          name: 'label',
          type: 'text',
        },
      ],
    },
  ],
  relationships: [
    {
      from: 'Project',
      to: 'Owner',
      type: 'ManyToOne',
    },
    {
      from: 'Task',
      to: 'Project',
      type: 'ManyToOne',
    },
    {
      from: 'Task',
      to: 'Comment',
      type: 'OneToMany',
      nullable: false,
      onDelete: 'CASCADE',
    },
  ],
};
