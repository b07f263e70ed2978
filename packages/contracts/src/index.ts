export * from './errors';
export * from './health';
export * from './me';
export * from './auth';
export * from './files';
export * from './ai';
export * from './notifications';
export * from './contact';
