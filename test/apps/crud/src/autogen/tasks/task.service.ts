/** @deprecated The service is yours now: import TaskService from src/extensions/tasks/task.service. */
export { TaskService } from '../../extensions/tasks/task.service';
