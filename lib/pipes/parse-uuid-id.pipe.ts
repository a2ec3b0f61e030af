import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { isUuid } from '../sql/predicates';

/** UUID ids, else 400. */
@Injectable()
export class ParseUuidIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) {
      throw new BadRequestException(`id must be a UUID, got ${JSON.stringify(value.slice(0, 40))}`);
    }
    return value.toLowerCase();
  }
}
