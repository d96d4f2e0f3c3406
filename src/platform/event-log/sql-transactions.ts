import { Injectable } from '@nestjs/common';
import { Transactions } from '../../common/transactions';
import { SqlStatements } from '../database/sql-statements';

/** A use case's transaction, the one SqlStatements joins (through AsyncLocalStorage). */
@Injectable()
export class SqlTransactions extends Transactions {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.sql.transaction(work);
  }

  together<T>(issue: () => Promise<T>): Promise<T> {
    return this.sql.together(issue);
  }
}
