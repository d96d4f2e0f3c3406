import { Injectable } from '@nestjs/common';
import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { admits, VersionPrecondition } from '../../common/versions';
import {
  ApplicationVersionMismatchError,
  InvalidApplicationError,
  OrganizationNotFoundError,
} from '../domain/application.errors';
import { Question, Questionnaire, questionsOf, questionsProblems } from '../domain/questionnaire';
import { questionnaireOf } from './application-events';
import { ApplicationRepository } from './application.repository';

/**
 * Makes the next version of the key's own organisation's questionnaire; applications keep the
 * version they answered. With If-Match, only over the version read.
 */
@Injectable()
export class PutQuestionnaire {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly transactions: Transactions,
  ) {}

  async execute(
    requester: Requester,
    organization: number,
    questions: unknown,
    precondition?: VersionPrecondition,
  ): Promise<Questionnaire> {
    checkScope(['organization:manage'], requester.scopes);
    if (!isStaffOf(requester, organization)) throw new OrganizationNotFoundError(organization);
    const problems = questionsProblems(questions);
    if (problems.length > 0) throw new InvalidApplicationError(problems);
    return this.transactions.run(async () => {
      const current = (await questionnaireOf(this.applications, organization))!;
      if (!admits(precondition, current.version)) {
        throw new ApplicationVersionMismatchError('The questionnaire', current.version);
      }
      const next = {
        version: current.version + 1,
        questions: questionsOf(questions as Question[]),
      };
      if (!(await this.applications.saveQuestionnaire(organization, current.version, next))) {
        // Another version was saved since this one was read.
        throw new ApplicationVersionMismatchError('The questionnaire', current.version + 1);
      }
      return next;
    });
  }
}
