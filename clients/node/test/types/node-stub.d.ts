// A minimal stand-in for @types/node, enough for test/types/usage.ts to be checked by a bare
// `tsc` (the types test uses it only when @types/node is not installed).
interface SymbolConstructor {
  readonly asyncDispose: unique symbol;
}
declare module 'node:events' {
  export class EventEmitter {
    on(event: string | symbol, listener: (...args: any[]) => void): this;
    once(event: string | symbol, listener: (...args: any[]) => void): this;
    off(event: string | symbol, listener: (...args: any[]) => void): this;
    addListener(event: string | symbol, listener: (...args: any[]) => void): this;
    removeListener(event: string | symbol, listener: (...args: any[]) => void): this;
    emit(event: string | symbol, ...args: any[]): boolean;
  }
}
