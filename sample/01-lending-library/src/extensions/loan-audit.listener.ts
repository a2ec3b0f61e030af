import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { createCrudRequest, type DomainEvent } from '@svc/nest';
import { AuditEventService } from './audit-events/audit-event.service';
import type { Loan } from '../autogen/loans/loan.entity';

/**
 * Loan has `"events": true` in .svcrc, so every committed create, update and delete of a
 * loan emits `loan.created`, `loan.updated`, `loan.deleted`. This listener keeps an audit
 * trail of new loans. It runs after the loan is committed; if it fails, the loan stays and
 * the error is logged (events are at most once: use an outbox table for guaranteed delivery).
 */
@Injectable()
export class LoanAuditListener {
  private readonly logger = new Logger(LoanAuditListener.name);

  constructor(private readonly auditEvents: AuditEventService) {}

  @OnEvent('loan.created', { async: true })
  async onLoanCreated(event: DomainEvent<Loan>): Promise<void> {
    await this.auditEvents.createOne(
      {
        action: 'loan.created',
        details: { loanId: event.id, memberId: event.record.memberId, bookCopyId: event.record.bookCopyId, by: event.auth?.userId ?? null },
      },
      createCrudRequest(),
    );
    this.logger.debug(`Audited loan ${event.id}`);
  }
}
