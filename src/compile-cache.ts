import { enableCompileCache } from 'node:module';

// Imported first by the entry points: V8 keeps the code it compiles for the service's modules in
// the system's temporary directory, and a later start on the same build reads it back instead of
// compiling NestJS, TypeORM and the rest again (docs/performance.md, "Start-up").
enableCompileCache();
