import { Controller, Get, Param, Post } from '@nestjs/common';
import { CrudEntity, CrudOperation, ParseIntIdPipe, SkipScopeCheck } from '@svc/nest';
import { DataSource } from 'typeorm';

/**
 * Custom routes on tasks that read and write with their own SQL, not through `CrudService`: the guard's
 * record check alone must answer for the row rules of `permissions` before they run.
 */
@CrudEntity('Task')
@Controller('task-actions')
export class TaskActionsController {
  constructor(private readonly dataSource: DataSource) {}

  @CrudOperation('get')
  @Get(':id/peek')
  async peek(@Param('id', ParseIntIdPipe) id: number) {
    const [row] = (await this.dataSource.query(`SELECT "title" FROM "tasks" WHERE "id" = $1`, [id])) as { title: string }[];
    return { title: row?.title ?? null };
  }

  @CrudOperation('update')
  @Post(':id/shout')
  async shout(@Param('id', ParseIntIdPipe) id: number) {
    await this.dataSource.query(`UPDATE "tasks" SET "title" = upper("title") WHERE "id" = $1`, [id]);
    return { shouted: id };
  }

  /** Skips the scope check, never the permissions. */
  @SkipScopeCheck()
  @CrudOperation('delete')
  @Post(':id/purge')
  async purge(@Param('id', ParseIntIdPipe) id: number) {
    await this.dataSource.query(`DELETE FROM "tasks" WHERE "id" = $1`, [id]);
    return { purged: id };
  }
}
