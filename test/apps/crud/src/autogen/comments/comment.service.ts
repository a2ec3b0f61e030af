/** @deprecated The service is yours now: import CommentService from src/extensions/comments/comment.service. */
export { CommentService } from '../../extensions/comments/comment.service';
