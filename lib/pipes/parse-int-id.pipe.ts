import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** Integer ids: decimal digits only, else 400. Ids too large to exist are left for the service to answer 404. */
@Injectable()
export class ParseIntIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^\d{1,16}$/.test(value)) {
      throw new BadRequestException(`id must be a positive integer, got ${JSON.stringify(value.slice(0, 40))}`);
    }
    return Number(value);
  }
}
