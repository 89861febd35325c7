import { useEffect, useState } from 'preact/hooks';
import { useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { useSaidByBanner } from '../../components/service-down';
import type { HelpAnswer } from '../../lib/api/inputs/help-answer';
import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { openRequests } from '../../lib/storage';
import { exactly, fromNow } from '../../lib/when';

const titleOf = (request: HelpRequest) => t('requestTitle', request.profile_name, request.reason);

/** While a request is open, on top of every other view: who needs the person, and a way to it. */
export function RequestsLine() {
  const open = useItem(openRequests);
  const first = open?.[0];
  if (!first) return null;
  return (
    <p class="banner request">
      <a href="#/requests">
        {titleOf(first)}
        {open.length > 1 ? ` (+${open.length - 1})` : ''}
      </a>
    </p>
  );
}

/**
 * The requests waiting for the person: Take over (the live view on the tab that asked), an answer, Decline. Under
 * a service that cannot be reached it says so, not that nobody waits.
 */
export function Requests() {
  const open = useItem(openRequests);
  const task = useTask();
  const down = useSaidByBanner();
  useEffect(() => void task.run(() => connector.send({ type: 'requests.refresh' })), []);
  return (
    <section class="stack">
      <Problem error={task.error} />
      {down ? (
        <p class="muted">{t('requestsOffline')}</p>
      ) : (
        open?.length === 0 && <p class="muted">{t('noRequests')}</p>
      )}
      <ul class="rows">
        {open?.map((request) => (
          <RequestRow key={request.id} request={request} />
        ))}
      </ul>
    </section>
  );
}

function RequestRow({ request }: { request: HelpRequest }) {
  const task = useTask();
  const [text, setText] = useState('');
  const [gone, setGone] = useState(false);
  const answer = (given: HelpAnswer) =>
    task.run(() => connector.send({ type: 'request.answer', requestId: request.id, answer: given }));
  const takeOver = () =>
    task
      .run(() => connector.send({ type: 'request.takeOver', requestId: request.id }))
      .then((reply) => setGone(reply.ok && !reply.value));
  const answers: [string, HelpAnswer][] = [
    [t('helpDone'), { outcome: 'done' }],
    ...request.choices.map((choice): [string, HelpAnswer] => [choice, { outcome: 'choice', choice }]),
    [t('helpDecline'), { outcome: 'declined' }],
  ];
  const label = t('helpAnswerLabel');
  return (
    <li class="stack">
      <strong>{titleOf(request)}</strong>
      {request.question}
      <small class="muted">
        <time dateTime={request.expires_at} title={exactly(request.expires_at)}>
          {t('requestTimesOut', fromNow(request.expires_at))}
        </time>
        {' · '}
        {request.run_id ? (
          <a href={`#/runs/${encodeURIComponent(request.run_id)}`}>{t('requestAskedByRun')}</a>
        ) : (
          t('requestAskedByAgent')
        )}
      </small>
      <div class="bar wrap">
        <button type="button" disabled={task.busy} onClick={takeOver}>
          {t('takeOver')}
        </button>
        {answers.map(([name, given]) => (
          <button type="button" key={name} disabled={task.busy} onClick={() => answer(given)}>
            {name}
          </button>
        ))}
      </div>
      {request.choices.length === 0 && (
        <form
          class="bar"
          onSubmit={(event) => {
            event.preventDefault();
            void answer({ outcome: 'answer', text });
          }}
        >
          <input
            aria-label={label}
            placeholder={label}
            value={text}
            maxLength={2000}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit" disabled={task.busy || !text}>
            {t('helpSend')}
          </button>
        </form>
      )}
      <Problem error={task.error ?? (gone ? { message: t('notWatchable') } : null)} />
    </li>
  );
}
