import type { ApolloServerPlugin } from '@apollo/server';
import type { Response } from 'express';
import type { FormattedExecutionResult } from 'graphql';
import { jsonAnswer } from '../http/json-body.ts';
import type { Context } from './context.ts';

/**
 * GraphQL answers holding a list, sent as the bytes of `jsonAnswer` (src/http/json-body.ts) rather than as one large
 * string. Apollo hands its Express integration the string its `stringifyResult` returns; for such an answer that
 * string is a placeholder, and the response, whose `send` was told about it when the request's context was built,
 * sends the bytes instead. The answer is matched to its response through its `data` object, seen with the request's
 * context in `willSendResponse` and again, unchanged, by `stringifyResult`. An answer that cannot be matched is sent
 * as a string: one whose `data` object another request in flight answers with too (a kept catalog answer, say).
 */

/** What `stringifyResult` returns for an answer whose bytes wait on its response; no JSON text starts with NUL. */
const PLACEHOLDER = '\u0000answer bytes';

interface Slot {
  bytes: Buffer | null;
}

/** The slot lives on its context, as the execution guard's budget does (src/graphql/limits/execution.ts). */
const SLOT = Symbol('answer bytes');
type Slotted = Context & { [SLOT]?: Slot };

/** What `data` maps to once two requests in flight answer with the same object. */
const SHARED = null;

export class GraphqlAnswerBytes {
  private readonly slots = new WeakMap<object, Slot | typeof SHARED>();

  /** `keptBytes`: the bytes already encoded for an answer's JSON, if any (a kept catalog answer's). */
  constructor(private readonly keptBytes: (json: string) => Buffer | undefined = () => undefined) {}

  /**
   * Makes `res` send the bytes `stringifyResult` writes for the operation of `context`, and for an answer given as
   * a string the bytes kept for it, if any.
   */
  attach(context: Context, res: Response): void {
    const slot: Slot = { bytes: null };
    (context as Slotted)[SLOT] = slot;
    const send = res.send;
    const keptBytes = this.keptBytes;
    res.send = function sendAnswer(this: Response, body?: unknown) {
      if (body !== PLACEHOLDER) return send.call(this, (typeof body === 'string' && keptBytes(body)) || body);
      // Only this request's own answer can have made its placeholder; never send the placeholder itself.
      if (!slot.bytes) throw new Error('a GraphQL answer placeholder without its bytes');
      const bytes = slot.bytes;
      slot.bytes = null;
      return send.call(this, bytes);
    };
  }

  /** Matches each answer's `data` to its request's slot (the last plugin: nothing changes the answer after it). */
  readonly plugin: ApolloServerPlugin<Context> = {
    requestDidStart: async () => ({
      willSendResponse: async ({ contextValue, response }) => {
        const slot = (contextValue as Slotted)[SLOT];
        if (!slot || response.body.kind !== 'single') return;
        const { data } = response.body.singleResult;
        if (data) this.slots.set(data, this.slots.has(data) ? SHARED : slot);
      },
    }),
  };

  /** Apollo's `stringifyResult`, with its bytes (`JSON.stringify` and a newline). */
  readonly stringify = (result: FormattedExecutionResult): string => {
    const body = jsonAnswer(result, '\n') as string | Buffer;
    if (typeof body === 'string') return body;
    const slot = result.data ? this.slots.get(result.data) : undefined;
    // Once shared, a data object stays shared: a later request's slot would otherwise take an earlier one's bytes.
    if (!slot) return body.toString();
    this.slots.delete(result.data!);
    slot.bytes = body;
    return PLACEHOLDER;
  };
}
