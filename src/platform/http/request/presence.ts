import { ValidateIf } from 'class-validator';

/** Validated whenever it was sent: null included (refused, for a member that is never null). */
export const Given = () => ValidateIf((_, value) => value !== undefined);

/** Validated when it holds a value: null is accepted (it clears an optional member). */
export const Nullable = () => ValidateIf((_, value) => value !== undefined && value !== null);
