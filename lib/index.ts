import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
@Injectable()
export class X { constructor(readonly ds: DataSource) {} }
