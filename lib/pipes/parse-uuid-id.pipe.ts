import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** UUID ids, else 400. */
@Injectable()
export class ParseUuidIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) {
      throw new BadRequestException(`id must be a UUID, got ${JSON.stringify(value.slice(0, 40))}`);
    }
    return value.toLowerCase();
  }
}
