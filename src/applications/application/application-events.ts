import { NewEvent } from '../../common/events/event';
import { eventTypeNamed } from '../../common/events/event-types';
import { Application, applicantView } from '../domain/application';
import { APPLICATION_EVENTS } from '../domain/application.events';
import { Questionnaire, DEFAULT_QUESTIONNAIRE } from '../domain/questionnaire';
import { ApplicationChanged, ApplicationRepository } from './application.repository';

type ApplicationEventName = keyof typeof APPLICATION_EVENTS;

/** An application's event: as its applicant reads it (never notes, never the assignee). */
export function applicationEvent(type: ApplicationEventName, application: Application): NewEvent {
  return {
    type: APPLICATION_EVENTS[type],
    data: applicantView(application),
    owner: application.applicantKeyId,
    organization: application.organizationId,
  };
}

/**
 * The events of a change: the other features' (a hold's order and pet, by the types their
 * features declared: this feature imports none of them), then the application's own, if what its
 * readers see changed.
 */
export function eventsOfChange(
  { application, side }: ApplicationChanged,
  type: ApplicationEventName | null,
): NewEvent[] {
  const others = side.map(({ type: name, data, owner, organization }) => {
    const declared = eventTypeNamed(name);
    if (!declared) throw new Error(`No feature declares the event type ${name}.`);
    return { type: declared, data, organization, ...(owner === undefined ? {} : { owner }) };
  });
  return type === null ? others : [...others, applicationEvent(type, application)];
}

/** The questionnaire of an organisation: `version`, or its latest; the default is version 1. */
export async function questionnaireOf(
  applications: ApplicationRepository,
  organization: number,
  version?: number,
): Promise<Questionnaire | null> {
  if (version === DEFAULT_QUESTIONNAIRE.version) return DEFAULT_QUESTIONNAIRE;
  const stored = await applications.questionnaire(organization, version);
  return stored ?? (version === undefined ? DEFAULT_QUESTIONNAIRE : null);
}
