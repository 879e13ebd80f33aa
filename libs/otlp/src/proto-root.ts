import { fileURLToPath } from 'node:url';
import path from 'node:path';
import protobuf from 'protobufjs';

// The OTLP message types, loaded once from the .proto files the OpenTelemetry project
// publishes (../proto, see its README for the version). protobufjs builds the decoders
// and encoders from them, so nothing here hand-parses the wire format.

const PROTO_DIR = fileURLToPath(new URL('../proto/', import.meta.url));

const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
root.loadSync(
  [
    'opentelemetry/proto/collector/logs/v1/logs_service.proto',
    'opentelemetry/proto/collector/trace/v1/trace_service.proto',
    'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
    'google/rpc/status.proto',
  ],
  {
    keepCase: false,
  },
);
// Every field's message type resolved now: budget.ts walks them before anything is decoded.
root.resolveAll();

export const OTLP_TYPES = {
  logsRequest: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
  logsResponse: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
  traceRequest: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest'),
  traceResponse: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  metricsRequest: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
  metricsResponse: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
  status: root.lookupType('google.rpc.Status'),
};
