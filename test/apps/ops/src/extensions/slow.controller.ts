import { Controller, Get, Query } from '@nestjs/common';
import { createCrudRequest } from '@svc/nest';
import { NoteService } from '../autogen/notes/note.service';

/** Test-only: a request that takes `ms` milliseconds, then reads the database. */
@Controller('slow')
export class SlowController {
  constructor(private readonly notes: NoteService) {}

  @Get()
  async slow(@Query('ms') ms = '1000'): Promise<{ ok: true; notes: number }> {
    // As a child process (test/apps/ops/process.ts), tell the test the request is in flight.
    process.send?.({ slowStarted: true });
    await new Promise((resolve) => setTimeout(resolve, Number(ms)));
    const page = await this.notes.findMany(createCrudRequest('limit=1'));
    return { ok: true, notes: page.total ?? 0 };
  }
}
