/** @deprecated The service is yours now: import OwnerService from src/extensions/owners/owner.service. */
export { OwnerService } from '../../extensions/owners/owner.service';
