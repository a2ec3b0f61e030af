// Every smoke test, in one process: `npm test` runs this file (node --test).
import './owners.e2e-spec';
import './projects.e2e-spec';
import './tasks.e2e-spec';
import './comments.e2e-spec';
import './loan-items.e2e-spec';
