// A small browser for the owner's app pages (§4.1 "browser page /dashboard/connect"): it keeps cookies, follows
// redirects, and signs in through the HTML sign-in form a page redirects to, with the email and password the
// fixtures protocol gives every world user "for the app sign-in page". Forms are read from the HTML as a browser
// reads them: inputs, checkboxes, selects and submit buttons (rule dashboard-connect-lists-scopes).

export interface FormInput { name: string; type: string; value: string; checked: boolean; label: string }
export interface HtmlForm { action: string; method: string; inputs: FormInput[]; selects: { name: string; value: string }[]; buttons: { name: string; value: string; text: string }[] }
export interface Page { url: string; status: number; html: string }

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? decode(m[1] ?? m[2] ?? m[3] ?? '') : new RegExp(`\\s${name}(?=[\\s>/])`, 'i').test(tag) ? '' : undefined;
};
const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const text = (html: string) => decode(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();

/** The forms of a page, each with its inputs (and the text of the label around each), selects and buttons. */
export function formsOf(html: string, pageUrl: string): HtmlForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, open, body]) => {
    const labels = [...body!.matchAll(/<label\b[^>]*>([\s\S]*?)<\/label>/gi)].map((m) => m[1]!);
    const inputs = [...body!.matchAll(/<input\b[^>]*>/gi)].map(([tag]) => ({
      name: attr(tag, 'name') ?? '',
      type: (attr(tag, 'type') ?? 'text').toLowerCase(),
      value: attr(tag, 'value') ?? '',
      checked: attr(tag, 'checked') !== undefined,
      label: text(labels.find((l) => l.includes(tag)) ?? ''),
    }));
    const selects = [...body!.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/gi)].map(([, tag, options]) => {
      const chosen = /<option\b[^>]*\sselected[^>]*>/i.exec(options!)?.[0] ?? /<option\b[^>]*>/i.exec(options!)?.[0] ?? '';
      return { name: attr(` ${tag}`, 'name') ?? '', value: attr(chosen, 'value') ?? '' };
    });
    const buttons = [...body!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/gi)].map(([, tag, inner]) => ({ name: attr(` ${tag}`, 'name') ?? '', value: attr(` ${tag}`, 'value') ?? '', text: text(inner!) }));
    return { action: new URL(attr(` ${open}`, 'action') || pageUrl, pageUrl).href, method: (attr(` ${open}`, 'method') ?? 'get').toLowerCase(), inputs, selects, buttons };
  });
}

export class Browser {
  readonly #cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async #fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (at > 0) this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
    return res;
  }

  /** Loads `url` (or the answer to a form post) and follows up to 10 redirects, as a browser does. */
  async open(url: string, init: RequestInit = {}): Promise<Page> {
    let res = await this.#fetch(new URL(url, this.base).href, init);
    let at = new URL(url, this.base).href;
    for (let hops = 0; hops < 10 && res.status >= 300 && res.status < 400 && res.headers.get('location'); hops++) {
      at = new URL(res.headers.get('location')!, at).href;
      await res.text();
      res = await this.#fetch(at);
    }
    return { url: at, status: res.status, html: await res.text() };
  }

  /** Submits a form with its own values, `fill` overriding inputs by name, the checkboxes in `ticked` ticked (others not), pressing `button`. */
  submit(form: HtmlForm, fill: Record<string, string> = {}, options: { ticked?: Set<string>; button?: { name: string; value: string } } = {}): Promise<Page> {
    const body = new URLSearchParams();
    for (const input of form.inputs) {
      if (!input.name || ['submit', 'button', 'image', 'reset', 'file'].includes(input.type)) continue;
      if (input.type === 'checkbox' || input.type === 'radio') {
        const on = options.ticked ? options.ticked.has(input.value) : input.checked;
        if (on) body.append(input.name, input.value || 'on');
      } else body.append(input.name, fill[input.name] ?? input.value);
    }
    for (const select of form.selects) if (select.name) body.append(select.name, fill[select.name] ?? select.value);
    if (options.button?.name) body.append(options.button.name, options.button.value);
    if (form.method === 'post') return this.open(form.action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body.toString() });
    const target = new URL(form.action);
    for (const [k, v] of body) target.searchParams.append(k, v);
    return this.open(target.href);
  }

  /**
   * Opens `url`; when it lands on a sign-in form (a form with a password input), signs in with `user` and opens
   * `url` again, as a person does who follows a link while signed out.
   */
  async openSignedIn(url: string, user: { email: string; password: string }): Promise<Page> {
    const first = await this.open(url);
    const signIn = formsOf(first.html, first.url).find((f) => f.inputs.some((i) => i.type === 'password'));
    if (!signIn) return first;
    const emailField = signIn.inputs.find((i) => i.type === 'email') ?? signIn.inputs.find((i) => /mail|user|login/i.test(i.name));
    const passwordField = signIn.inputs.find((i) => i.type === 'password')!;
    if (!emailField) throw new Error(`the sign-in form at ${first.url} has no email field: ${first.html.slice(0, 300)}`);
    const signedIn = await this.submit(signIn, { [emailField.name]: user.email, [passwordField.name]: user.password });
    if (formsOf(signedIn.html, signedIn.url).some((f) => f.inputs.some((i) => i.type === 'password'))) throw new Error(`signing in at ${first.url} as ${user.email} did not succeed (HTTP ${signedIn.status})`);
    return this.open(url);
  }
}
