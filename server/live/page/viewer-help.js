// The live view's request for help: what an agent or a run waiting for a person asks, and the answers.

/**
 * Shows in `help` the session's open request of an agent or a run for a person, or nothing once there is none:
 * its reason, and Done, one of its choices, or (for a question without choices) a typed answer, sent back as
 * `help-reply`.
 * @param {HTMLElement} help
 * @param {{ id: string, reason: string, question: string | null, choices: string[] } | null} request
 * @param {(message: object) => void} send
 */
export function showHelp(help, request, send) {
  help.hidden = request === null;
  if (request === null) return help.replaceChildren();
  const reply = (/** @type {object} */ answer) => send({ type: 'help-reply', request: request.id, answer });
  const button = (/** @type {string} */ label, /** @type {object} */ answer) => {
    const element = document.createElement('button');
    element.type = 'button';
    element.textContent = label;
    element.addEventListener('click', () => reply(answer));
    return element;
  };
  const reason = document.createElement('strong');
  reason.textContent = request.reason;
  const question = document.createElement('span');
  question.textContent = request.question ?? '';
  const answers = request.choices.map((choice) => button(choice, { outcome: 'choice', choice }));
  if (request.question && request.choices.length === 0) {
    const form = document.createElement('form');
    const typed = document.createElement('input');
    typed.name = 'answer';
    typed.maxLength = 2000;
    typed.setAttribute('aria-label', 'Your answer');
    const submit = document.createElement('button');
    submit.textContent = 'Send';
    form.append(typed, submit);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (typed.value) reply({ outcome: 'answer', text: typed.value });
    });
    answers.push(form);
  }
  help.replaceChildren(
    reason,
    question,
    ...answers,
    button('Done', { outcome: 'done' }),
    button('Decline', { outcome: 'declined' }),
  );
}
