import { Type } from 'typebox';

/** The answer of `POST websocket-notifications/groups/`: the code that opens the socket. */
export const CodeAnswerSchema = Type.Object({ code: Type.String() });
