{{/* Names and labels shared by every template. */}}
{{- define "devtrail.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "devtrail.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "devtrail.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "devtrail.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "receiver") */}}
{{- define "devtrail.selectorLabels" -}}
app.kubernetes.io/name: {{ include "devtrail.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "devtrail.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "devtrail.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ default (include "devtrail.fullname" .) .Values.serviceAccount.name }}
{{- else -}}
{{ default "default" .Values.serviceAccount.name }}
{{- end -}}
{{- end -}}

{{/* The environment every service reads: the ConfigMap, then the secrets. */}}
{{- define "devtrail.env" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "secrets.postgres.existingSecret is required: a Secret holding DATABASE_URL" .Values.secrets.postgres.existingSecret }}
      key: {{ .Values.secrets.postgres.urlKey }}
{{- with .Values.secrets.clickhouse.existingSecret }}
- name: CLICKHOUSE_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.secrets.clickhouse.passwordKey }}
{{- end }}
{{- end -}}

{{/* A component's own variables: a map NAME: value. */}}
{{- define "devtrail.extraEnv" -}}
{{- range $name, $value := . }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* Pod-level settings every Deployment shares: (dict "root" $ "component" "receiver") */}}
{{- define "devtrail.podSpec" -}}
serviceAccountName: {{ include "devtrail.serviceAccountName" .root }}
{{- with .root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- with .root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .root.Values.spreadOverNodes }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- include "devtrail.selectorLabels" . | nindent 8 }}
{{- end }}
volumes:
  # The root filesystem is read-only; tsx keeps its compile cache under /tmp.
  - name: tmp
    emptyDir: {}
{{- end -}}

{{/* Probes on a port: liveness /health, readiness /health/ready (docs/operations.md#probes). */}}
{{- define "devtrail.probes" -}}
startupProbe:
  httpGet: { path: /health, port: http }
  {{- toYaml .root.Values.probes.startup | nindent 2 }}
livenessProbe:
  httpGet: { path: /health, port: http }
  {{- toYaml .root.Values.probes.liveness | nindent 2 }}
readinessProbe:
  httpGet: { path: /health/ready, port: http }
  {{- toYaml .root.Values.probes.readiness | nindent 2 }}
{{- end -}}

{{- define "devtrail.podAnnotations" -}}
checksum/config: {{ include (print .root.Template.BasePath "/configmap.yaml") .root | sha256sum }}
{{- if .root.Values.metrics.podAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/path: /metrics
prometheus.io/port: {{ .metricsPort | default .port | quote }}
{{- end }}
{{- with .root.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}
