/** The message every echo row sends (ProtoJSON): a text part the echo skill returns. */
export const ECHO_MESSAGE = {
  messageId: "m-1",
  role: "ROLE_USER",
  parts: [{ text: "Hello, bench! This is the echo payload." }],
  metadata: { skillId: "echo" },
};
