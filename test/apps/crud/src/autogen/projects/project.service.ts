/** @deprecated The service is yours now: import ProjectService from src/extensions/projects/project.service. */
export { ProjectService } from '../../extensions/projects/project.service';
