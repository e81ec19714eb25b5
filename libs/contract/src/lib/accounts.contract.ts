import { initContract } from '@ts-rest/core';
import { commonResponses, meta } from './common-responses';
import {
  AccountCreatedSchema,
  AccountCreateSchema,
  AccountPageSchema,
  AccountSchema,
  AccountUpdateSchema,
} from './schemas/account.schema';
import { AccountInfoSchema, BillingSubscriptionSchema, BillingUsageQuerySchema, BillingUsageSchema } from './schemas/billing.schema';
import { IdParamSchema, PageQuerySchema } from './schemas/common.schema';
import { LogPageSchema, LogQuerySchema } from './schemas/log.schema';
import { ModelListSchema } from './schemas/model.schema';
import { PriceTableSchema } from './schemas/price.schema';

const c = initContract();
const admin = meta({ auth: 'admin' });
const self = meta({ auth: 'self' });

/** Accounts (admin), prices (admin), logs (scoped) and the caller's own view (SPEC §4, §8). */
export const accountsContract = c.router(
  {
    listAccounts: { method: 'GET', path: '/api/accounts', query: PageQuerySchema, responses: { 200: AccountPageSchema }, metadata: admin },
    createAccount: { method: 'POST', path: '/api/accounts', body: AccountCreateSchema, responses: { 201: AccountCreatedSchema }, metadata: admin },
    getAccount: { method: 'GET', path: '/api/accounts/:id', pathParams: IdParamSchema, responses: { 200: AccountSchema }, metadata: admin },
    updateAccount: {
      method: 'PATCH',
      path: '/api/accounts/:id',
      pathParams: IdParamSchema,
      body: AccountUpdateSchema,
      responses: { 200: AccountSchema },
      metadata: admin,
    },
    deleteAccount: {
      method: 'DELETE',
      path: '/api/accounts/:id',
      pathParams: IdParamSchema,
      responses: { 204: c.noBody() },
      metadata: admin,
    },
    getPrices: { method: 'GET', path: '/api/prices', responses: { 200: PriceTableSchema }, metadata: admin },
    putPrices: { method: 'PUT', path: '/api/prices', body: PriceTableSchema, responses: { 200: PriceTableSchema }, metadata: admin },
    listLogs: {
      method: 'GET',
      path: '/api/logs',
      query: LogQuerySchema,
      responses: { 200: LogPageSchema },
      metadata: meta({ auth: 'management' }),
    },
    getAccountInfo: { method: 'GET', path: '/api/account', responses: { 200: AccountInfoSchema }, metadata: self },
    listCallerModels: { method: 'GET', path: '/api/models', responses: { 200: ModelListSchema }, metadata: self },
    getBillingSubscription: {
      method: 'GET',
      path: '/v1/dashboard/billing/subscription',
      responses: { 200: BillingSubscriptionSchema },
      metadata: self,
    },
    getBillingUsage: {
      method: 'GET',
      path: '/v1/dashboard/billing/usage',
      query: BillingUsageQuerySchema,
      responses: { 200: BillingUsageSchema },
      metadata: self,
    },
  },
  { commonResponses, strictStatusCodes: true },
);
