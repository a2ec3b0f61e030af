import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../interfaces/auth-context.interface';
import type { ServiceModel } from '../../schema/model';
import { SqlExecutor } from '../../sql/sql-executor';
import { SVC_MODEL } from '../../svc.constants';
import {
  type ApiKeyInfo,
  createApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  findApiKey,
  listApiKeys,
  revokeApiKey,
} from './api-keys';

/** Service API keys (`svc_api_keys`), from application code; `svc keys` does the same from a shell. */
@Injectable()
export class SvcApiKeyService {
  constructor(
    private readonly executor: SqlExecutor,
    @Inject(SVC_MODEL) private readonly model: ServiceModel,
  ) {}

  get prefix(): string {
    return this.model.auth?.apiKeyPrefix ?? 'svc';
  }

  create(input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return createApiKey(this.executor, this.prefix, input);
  }

  list(): Promise<ApiKeyInfo[]> {
    return listApiKeys(this.executor);
  }

  revoke(id: string): Promise<boolean> {
    return revokeApiKey(this.executor, id);
  }

  /** The context of a live key, or null. */
  async authenticate(key: string): Promise<AuthContext | null> {
    if (!key.startsWith(`${this.prefix}_`)) return null;
    const found = await findApiKey(this.executor, key);
    if (!found) return null;
    const field = this.model.auth?.organizationField ?? 'organizationId';
    return {
      userId: null,
      organizationId: found.organizationId,
      workspaceId: found.organizationId,
      [field]: found.organizationId,
      roles: found.roles,
      via: 'api-key',
      apiKeyId: found.id,
      apiKeyName: found.name,
    };
  }
}
