// The transcript of a failed step (conformance/lib/transcript.ts): each step's exchanges are kept apart in
// the scenario's ExchangeLog, and a step that failed gets what the kit sent and got attached (media type
// TRANSCRIPT_MEDIA_TYPE), which conformance/lib/report.ts carries to the console, junit.xml and report.html.
import { AfterStep, BeforeStep, Status } from '@cucumber/cucumber';
import { TRANSCRIPT_MEDIA_TYPE } from '../../conformance/lib/transcript.js';
import { HOOK } from './hook.js';
import type { SiteWorld } from './world.js';

const beginStep = Object.assign(function (this: SiteWorld, { pickleStep }: { pickleStep: { text: string } }) {
  this.exchanges.beginStep(pickleStep.text);
}, { [HOOK]: true as const });
BeforeStep(beginStep);

const attachTranscript = Object.assign(async function (this: SiteWorld, { result }: { result: { status: string } }) {
  if (result.status !== Status.FAILED) return;
  const transcript = await this.exchanges.failureTranscript(this.secrets());
  if (transcript) this.attach(transcript, TRANSCRIPT_MEDIA_TYPE);
}, { [HOOK]: true as const });
AfterStep(attachTranscript);
