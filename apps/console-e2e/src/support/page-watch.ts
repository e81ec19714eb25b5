import type { Page, Request, Response } from 'playwright-core';

/** A same-origin answer a step provokes on purpose (a wrong key → 401), not a fault of the page. */
export interface ExpectedFailure {
  path: string;
  status: number;
}

/** Resource kinds whose failure means the page itself is broken (a missing chunk, a 404 font). */
const ASSET_TYPES = new Set(['document', 'script', 'stylesheet', 'image', 'font', 'manifest']);

/**
 * Records what must never happen on a page: `console.error`, uncaught errors, a failed or 4xx/5xx
 * same-origin request, and every URL the page asked for (so a test can show nothing left the machine).
 */
export class PageWatch {
  readonly requestedUrls: string[] = [];
  private readonly problems: string[] = [];
  private expected: ExpectedFailure[] = [];

  constructor(
    page: Page,
    private readonly origin: string,
  ) {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium reports a 4xx/5xx answer as a console error too; an expected one is not a problem.
      if (message.text().startsWith('Failed to load resource') && this.isExpected(message.location().url)) return;
      this.problems.push(`console.error: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('request', (request) => this.requestedUrls.push(request.url()));
    page.on('requestfailed', (request) => this.onRequestFailed(request));
    page.on('response', (response) => this.onResponse(response));
  }

  /** Allows the next answers with this path and status (until `clear()`). */
  expectFailure(failure: ExpectedFailure): void {
    this.expected.push(failure);
  }

  /** What went wrong since the last call, then forgets it and the expected failures. */
  takeProblems(): string[] {
    const problems = this.problems.splice(0);
    this.expected = [];
    return problems;
  }

  private sameOrigin(url: string): boolean {
    return new URL(url).origin === this.origin;
  }

  private isExpected(url: string, status?: number): boolean {
    if (url === '' || !this.sameOrigin(url)) return false;
    const { pathname } = new URL(url);
    return this.expected.some((failure) => failure.path === pathname && (status === undefined || failure.status === status));
  }

  private onRequestFailed(request: Request): void {
    if (!this.sameOrigin(request.url())) return;
    const reason = request.failure()?.errorText ?? 'failed';
    // A fetch the page abandons on purpose (Stop, leaving a page) is aborted; an asset never should be.
    if (reason === 'net::ERR_ABORTED' && !ASSET_TYPES.has(request.resourceType())) return;
    this.problems.push(`request failed: ${request.method()} ${request.url()} (${reason})`);
  }

  private onResponse(response: Response): void {
    const url = response.url();
    if (response.status() < 400 || !this.sameOrigin(url) || this.isExpected(url, response.status())) return;
    this.problems.push(`HTTP ${response.status()}: ${response.request().method()} ${url}`);
  }
}
