/** @deprecated The service is yours now: import LoanItemService from src/extensions/loan-items/loan-item.service. */
export { LoanItemService } from '../../extensions/loan-items/loan-item.service';
