/** Steps the admin browser specs take on a page: signing in through the login form, and waiting for a value. */
import type { Page } from 'playwright-core';

/** Signs in through the admin's login form at `admin`, expecting `POST <apiUrl>/api/auth/login` to answer 200. */
export async function signIn(page: Page, admin: string, apiUrl: string, email: string, password: string): Promise<void> {
  await page.goto(admin);
  await page.waitForURL(/#\/login/, { timeout: 20_000 });
  await page.fill('input[name="username"]', email);
  await page.fill('input[name="password"]', password);
  const answered = page.waitForResponse((response) => response.url() === `${apiUrl}/api/auth/login`);
  await page.click('button[type="submit"]');
  const status = (await answered).status();
  if (status !== 200) throw new Error(`the login of ${email} answered ${status}`);
  await page.waitForURL((current) => !current.hash.startsWith('#/login'), { timeout: 20_000 });
}

/** Waits until `check` accepts what `read` answers (the page and the database catch up asynchronously). */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => void, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    try {
      check(value);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
