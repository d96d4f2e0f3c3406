import { Application, ERASED_APPLICANT, erasedAnswers, isFinal } from './application';
import { Questionnaire, textQuestionIds } from './questionnaire';

/** What erasing an application writes: an open one also ends (`closed`, `erased`) and lets its hold go. */
export function eraseOutcome(current: Application, questionnaire: Questionnaire) {
  const open = !isFinal(current.status);
  return {
    applicant: ERASED_APPLICANT,
    answers: erasedAnswers(current.answers, textQuestionIds(questionnaire)),
    erased: true,
    ...(open
      ? { status: 'closed' as const, closedReason: 'erased' as const, order: 'release' as const }
      : {}),
  };
}
