import { killLeftoverServices } from './service-process';

afterAll(() => killLeftoverServices());
