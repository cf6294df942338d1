{{- define "sandbox-gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "sandbox-gateway.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "sandbox-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sandbox-gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "sandbox-gateway.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "sandbox-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "sandbox-gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "sandbox-gateway.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* A StatefulSet when the audit spool is persistent (one volume per replica), else a Deployment. */}}
{{- define "sandbox-gateway.workloadKind" -}}
{{- ternary "StatefulSet" "Deployment" .Values.auditSpool.persistence.enabled }}
{{- end }}

{{/* Shared state is only correct for one replica when PostgreSQL or Redis is off. */}}
{{- define "sandbox-gateway.validate" -}}
{{- $several := or .Values.autoscaling.enabled (gt (int .Values.replicaCount) 1) }}
{{- if and $several (not .Values.postgresql.enabled) }}
{{- fail "postgresql.enabled=false keeps audit, ownership and budgets in each pod: set replicaCount=1 and autoscaling.enabled=false, or enable PostgreSQL" }}
{{- end }}
{{- if and $several (not .Values.redis.enabled) }}
{{- fail "redis.enabled=false keeps rate limits in each pod's memory: set replicaCount=1 and autoscaling.enabled=false, or enable Redis" }}
{{- end }}
{{- if not (has .Values.redis.onFailure (list "deny" "allow")) }}
{{- fail (printf "redis.onFailure must be deny or allow, was %v" .Values.redis.onFailure) }}
{{- end }}
{{- if not .Values.upstream.apiKey.existingSecret }}
{{- fail "upstream.apiKey.existingSecret must name the Secret with the OpenAI key: without a key the gateway would answer from its offline simulator" }}
{{- end }}
{{- if not .Values.auth.keys.existingSecret }}
{{- fail "auth.keys.existingSecret must name the Secret with the gateway keys file" }}
{{- end }}
{{- with .Values.audit.witness }}
{{- if and (or .urls .volume) (not $.Values.audit.signingKey.existingSecret) }}
{{- fail "audit.witness is set but audit.signingKey.existingSecret is empty: without a signing key no checkpoint is made, so no witness would get one" }}
{{- end }}
{{- range .urls }}
{{- if not (has (urlParse .).scheme (list "http" "https")) }}
{{- fail (printf "audit.witness.urls must be http or https URLs, was %v" .) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
