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
import { z } from 'zod';
import { LogExportQuerySchema, LogPageSchema, LogQuerySchema } from './schemas/log.schema';
import { ModelListSchema } from './schemas/model.schema';
import { PriceTableSchema } from './schemas/price.schema';
import { UsageSeriesQuerySchema, UsageSeriesSchema } from './schemas/usage-series.schema';

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
    /**
     * Every row the filters match as CSV (columns: LOG_CSV_COLUMNS), newest first, streamed as it
     * is read (keyset pages), so a range of millions of rows holds no more than a page in memory.
     */
    exportLogs: {
      method: 'GET',
      path: '/api/logs/export',
      summary: 'The usage log as CSV, streamed: the listing\'s filters, no paging',
      query: LogExportQuerySchema,
      responses: { 200: c.otherResponse({ contentType: 'text/csv', body: z.string() }) },
      metadata: meta({ auth: 'management' }),
    },
    getUsage: {
      method: 'GET',
      path: '/api/usage',
      summary: 'Requests, errors, tokens and cost per hour or day, in total or per model, channel or token',
      query: UsageSeriesQuerySchema,
      responses: { 200: UsageSeriesSchema },
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
