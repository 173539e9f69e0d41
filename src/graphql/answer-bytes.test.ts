import type { Response } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/helpers/app.ts';
import { createTest, team, technique, type Team } from '../../test/helpers/test-runs.ts';
import type { Context } from './context.ts';
import { GraphqlAnswerBytes } from './answer-bytes.ts';

describe('answers holding a list, written as bytes', () => {
  const app = useTestApp();
  let t: Team;

  beforeAll(async () => {
    t = await team(app);
    const { id } = await technique(app);
    // Names beyond Latin-1, so that the answer's text takes two bytes a character in V8 (src/http/json-body.ts).
    for (let n = 1; n <= 12; n++) await createTest(app, t.red_lead, id, { name: `T${n} – Masquerade “quoted” 😀` });
  });

  /** The raw answer, and whether it is exactly `JSON.stringify` of what it says (plus `suffix`). */
  async function raw(path: string, init: RequestInit, suffix = '') {
    const response = await fetch(`${app.url}${path}`, init);
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      length: Number(response.headers.get('content-length')),
      bytes: bytes.length,
      exact: text === `${JSON.stringify(JSON.parse(text))}${suffix}`,
      body: JSON.parse(text),
    };
  }

  it('over REST: the bytes of JSON.stringify, with their length and the JSON media type', async () => {
    const answer = await raw('/api/v1/tests?limit=20', { headers: { authorization: `Bearer ${t.viewer.token}` } });
    expect(answer).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', exact: true });
    expect(answer.length).toBe(answer.bytes);
    expect(answer.body.items.map((item: { name: string }) => item.name)).toContain('T12 – Masquerade “quoted” 😀');
  });

  it('over GraphQL: the bytes Apollo writes (JSON.stringify and a newline), several requests at once', async () => {
    const query = 'query { tests(limit: 20) { items { id name } total } }';
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.viewer.token}` },
      body: JSON.stringify({ query }),
    };
    const answers = await Promise.all(Array.from({ length: 8 }, () => raw('/graphql', init, '\n')));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200, type: 'application/json; charset=utf-8', exact: true });
      expect(answer.length).toBe(answer.bytes);
      expect(answer.body.data.tests.items).toHaveLength(12);
      expect(answer.body.data.tests.items.map((item: { name: string }) => item.name)).toContain('T1 – Masquerade “quoted” 😀');
    }
  });
});

describe('GraphqlAnswerBytes', () => {
  /** A response whose `send` records what it was given. */
  const response = () => {
    const sent: unknown[] = [];
    const res = { send: (body: unknown) => sent.push(body) } as unknown as Response;
    return { res, sent };
  };
  const willSend = (answers: GraphqlAnswerBytes, context: Context, data: object) =>
    (answers.plugin.requestDidStart as any)().then((hooks: any) =>
      hooks.willSendResponse({ contextValue: context, response: { body: { kind: 'single', singleResult: { data } } } }),
    );
  const listData = () => ({ tests: { items: Array.from({ length: 10 }, (_, n) => ({ name: `T${n} – x` })) } });

  it("sends an answer's bytes on its own response, and a small answer as its string", async () => {
    const answers = new GraphqlAnswerBytes();
    const context = {} as Context;
    const { res, sent } = response();
    answers.attach(context, res);
    const data = listData();
    await willSend(answers, context, data);
    const placeholder = answers.stringify({ data });
    res.send(placeholder);
    expect(Buffer.isBuffer(sent[0])).toBe(true);
    expect((sent[0] as Buffer).toString()).toBe(`${JSON.stringify({ data })}\n`);
    expect(answers.stringify({ data: { one: 1 } })).toBe('{"data":{"one":1}}\n');
  });

  it('writes a string for an answer whose data object two requests in flight share, or that no request announced', async () => {
    const answers = new GraphqlAnswerBytes();
    const shared = listData();
    const first = { context: {} as Context, ...response() };
    const second = { context: {} as Context, ...response() };
    for (const request of [first, second]) answers.attach(request.context, request.res);
    await willSend(answers, first.context, shared);
    await willSend(answers, second.context, shared);
    const expected = `${JSON.stringify({ data: shared })}\n`;
    expect(answers.stringify({ data: shared })).toBe(expected);
    expect(answers.stringify({ data: shared })).toBe(expected);
    // Still shared for a third request announced later, whose slot an earlier request could otherwise take.
    const third = { context: {} as Context, ...response() };
    answers.attach(third.context, third.res);
    await willSend(answers, third.context, shared);
    expect(answers.stringify({ data: shared })).toBe(expected);
    expect(answers.stringify({ data: listData() })).toBe(`${JSON.stringify({ data: listData() })}\n`);
  });

  it('refuses to send its placeholder without bytes', () => {
    const answers = new GraphqlAnswerBytes();
    const { res } = response();
    answers.attach({} as Context, res);
    expect(() => res.send('\u0000answer bytes')).toThrow(/placeholder/);
  });
});
