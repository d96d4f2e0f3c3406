import { Module } from '@nestjs/common';
import { BackgroundPacing } from './background-pacing';

/** The instance's one pacing of background work (docs/adr/0056), shared by whoever runs some. */
@Module({ providers: [BackgroundPacing], exports: [BackgroundPacing] })
export class BackgroundModule {}
