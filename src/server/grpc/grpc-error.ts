/**
 * A2A errors as gRPC statuses (spec §10.6): the status code from the error
 * table, the message, and the `google.rpc.ErrorInfo` (then any further
 * google.rpc details, such as `BadRequest`) in the status details, which
 * connect-node sends as `grpc-status-details-bin` (and as the Connect and
 * gRPC-Web protocols' equivalents).
 */
import { createRegistry, type DescMessage, fromJson, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { type Code, ConnectError } from "@connectrpc/connect";
import { file_google_rpc_error_details } from "../../../gen/google/rpc/error_details_pb.js";
import { asWireError, grpcStatusOf, wireDetailsOf } from "../../a2a/error-wire.js";
import type { ErrorDetail } from "../../a2a/errors.js";

/** The detail types a status can carry: google/rpc/error_details.proto. */
const detailTypes = createRegistry(file_google_rpc_error_details);

type OutgoingDetail = { desc: DescMessage; value: MessageShape<DescMessage> };

/** A ProtoJSON `Any` detail as a message; undefined for a type gRPC cannot encode here. */
function outgoingDetail(detail: ErrorDetail): OutgoingDetail | undefined {
  const { "@type": typeUrl, ...fields } = detail;
  const desc = detailTypes.getMessage(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
  if (!desc) return undefined;
  try {
    return { desc, value: fromJson(desc, fields as JsonValue, { ignoreUnknownFields: true }) };
  } catch {
    return undefined;
  }
}

/** The ConnectError to throw for `error`; anything that is not an A2AError is a bare INTERNAL. */
export function toConnectError(error: unknown): ConnectError {
  const a2a = asWireError(error);
  const details = wireDetailsOf(a2a).flatMap((d) => outgoingDetail(d) ?? []);
  return new ConnectError(a2a.message, grpcStatusOf(a2a) as Code, undefined, details, a2a);
}
