import {
  ApplicationChange,
  ApplicationChanged,
  ApplicationPageQuery,
  ApplicationRepository,
  NewApplication,
} from '../../src/applications/application/application.repository';
import { Application, ApplicationId, isFinal } from '../../src/applications/domain/application';
import { Questionnaire } from '../../src/applications/domain/questionnaire';
import { VersionPrecondition } from '../../src/common/versions';

/**
 * Applications in a map, for use cases' specs: no locks, no orders (a hold or release changes the
 * application only). `updatedAt` is what the spec sets, so that retention can be tried at any age.
 */
export class InMemoryApplicationRepository extends ApplicationRepository {
  readonly rows = new Map<ApplicationId, Application & { erased?: boolean }>();
  readonly questionnaires = new Map<number, Questionnaire[]>();
  private nextId = 1;

  /** What latestKnownQuestionnaire answers until add finds it stale; unset: the latest. */
  readonly known = new Map<number, Questionnaire | null>();

  /** One transaction: the applications added in it are gone again when it throws. */
  async submitting<T>(_applicantKeyId: string, work: () => Promise<T>): Promise<T> {
    const before = new Set(this.rows.keys());
    try {
      return await work();
    } catch (error) {
      for (const id of this.rows.keys()) if (!before.has(id)) this.rows.delete(id);
      throw error;
    }
  }

  async add(application: NewApplication): Promise<Application | null> {
    const latest = await this.questionnaire(application.organizationId);
    if ((latest?.version ?? 1) !== application.questionnaireVersion) {
      this.known.delete(application.organizationId);
      return null;
    }
    const at = new Date().toISOString();
    const added: Application = {
      ...application,
      id: this.nextId++,
      status: 'submitted',
      decisionReason: null,
      orderId: null,
      closedReason: null,
      createdAt: at,
      updatedAt: at,
      version: 1,
      assigneeKeyId: null,
      notes: [],
    };
    this.rows.set(added.id, added);
    return added;
  }

  async findById(id: ApplicationId): Promise<Application | null> {
    return this.rows.get(id) ?? null;
  }

  async findPage(query: ApplicationPageQuery): Promise<Application[]> {
    return [...this.rows.values()]
      .filter(
        (a) =>
          (query.organization === undefined
            ? a.applicantKeyId === query.applicantKeyId
            : a.organizationId === query.organization) &&
          (query.status === undefined || a.status === query.status) &&
          (query.petId === undefined || a.petId === query.petId) &&
          a.id > (query.after ?? 0),
      )
      .sort((x, y) => x.id - y.id)
      .slice(0, query.limit + 1);
  }

  async change(
    id: ApplicationId,
    _intent: 'plain' | 'hold' | 'release',
    _precondition: VersionPrecondition | undefined,
    decide: (current: Application) => ApplicationChange | null,
  ): Promise<ApplicationChanged | null> {
    const current = this.rows.get(id);
    if (!current) return null;
    const change = decide(current);
    if (!change) return { application: current, side: [] };
    const { order: _order, note: _note, ...members } = change;
    const changed = { ...current, ...members, version: current.version + 1 };
    this.rows.set(id, changed);
    return { application: changed, side: [] };
  }

  async findErasable(before: Date, limit: number): Promise<Application[]> {
    return [...this.rows.values()]
      .filter((a) => !a.erased && isFinal(a.status) && a.status !== 'adopted')
      .filter((a) => Date.parse(a.updatedAt) <= before.getTime())
      .sort((x, y) => Date.parse(x.updatedAt) - Date.parse(y.updatedAt))
      .slice(0, limit);
  }

  async organizationExists(organization: number): Promise<boolean> {
    return [...this.rows.values()].some((a) => a.organizationId === organization);
  }

  async questionnaire(organization: number, version?: number): Promise<Questionnaire | null> {
    // The latest, read: known from then on.
    if (version === undefined) this.known.delete(organization);
    const versions = this.questionnaires.get(organization) ?? [];
    return (
      (version === undefined ? versions.at(-1) : versions.find((q) => q.version === version)) ??
      null
    );
  }

  async latestKnownQuestionnaire(organization: number): Promise<Questionnaire | null> {
    const known = this.known.get(organization);
    return known !== undefined ? known : this.questionnaire(organization);
  }

  async saveQuestionnaire(
    organization: number,
    expected: number,
    questionnaire: Questionnaire,
  ): Promise<boolean> {
    const versions = this.questionnaires.get(organization) ?? [];
    if ((versions.at(-1)?.version ?? 1) !== expected) return false;
    this.questionnaires.set(organization, [...versions, questionnaire]);
    return true;
  }
}
