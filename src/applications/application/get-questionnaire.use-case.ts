import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { OrganizationNotFoundError } from '../domain/application.errors';
import { Questionnaire } from '../domain/questionnaire';
import { questionnaireOf } from './application-events';
import { ApplicationRepository } from './application.repository';

/** An organisation's questionnaire, latest version: public to `pets:read`, as the shelter is. */
@Injectable()
export class GetQuestionnaire {
  constructor(private readonly applications: ApplicationRepository) {}

  async execute(requester: Requester, organization: number): Promise<Questionnaire> {
    checkScope(['pets:read'], requester.scopes);
    if (!(await this.applications.organizationExists(organization))) {
      throw new OrganizationNotFoundError(organization);
    }
    return (await questionnaireOf(this.applications, organization))!;
  }
}
