package com.sandboxgateway;

import static com.sandboxgateway.api.Route.CONTAINERS_CREATE;
import static com.sandboxgateway.api.Route.CONTAINERS_LIST;
import static com.sandboxgateway.api.Route.CONTAINER_DELETE;
import static com.sandboxgateway.api.Route.CONTAINER_FILES_CREATE;
import static com.sandboxgateway.api.Route.CONTAINER_FILE_DELETE;
import static com.sandboxgateway.api.Route.CONVERSATIONS_CREATE;
import static com.sandboxgateway.api.Route.CONVERSATION_DELETE;
import static com.sandboxgateway.api.Route.CONVERSATION_ITEMS_CREATE;
import static com.sandboxgateway.api.Route.CONVERSATION_ITEMS_LIST;
import static com.sandboxgateway.api.Route.CONVERSATION_ITEM_DELETE;
import static com.sandboxgateway.api.Route.CONVERSATION_ITEM_GET;
import static com.sandboxgateway.api.Route.CONVERSATION_UPDATE;
import static com.sandboxgateway.api.Route.FILES_LIST;
import static com.sandboxgateway.api.Route.FILES_UPLOAD;
import static com.sandboxgateway.api.Route.FILE_DELETE;
import static com.sandboxgateway.api.Route.RESPONSES_CREATE;
import static com.sandboxgateway.api.Route.RESPONSE_CANCEL;
import static com.sandboxgateway.api.Route.RESPONSE_DELETE;
import static com.sandboxgateway.api.Route.RESPONSE_GET;
import static com.sandboxgateway.api.Route.SKILLS_CREATE;
import static com.sandboxgateway.api.Route.SKILLS_LIST;
import static com.sandboxgateway.api.Route.SKILL_DELETE;
import static com.sandboxgateway.api.Route.SKILL_VERSIONS_CREATE;
import static com.sandboxgateway.policy.OnRoutes.always;
import static com.sandboxgateway.policy.OnRoutes.on;

import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.audit.CodeExecutionAuditor;
import com.sandboxgateway.audit.CodeOutputsRequested;
import com.sandboxgateway.budget.Admission;
import com.sandboxgateway.budget.Budgets;
import com.sandboxgateway.budget.RunawaySessions;
import com.sandboxgateway.budget.Sessions;
import com.sandboxgateway.budget.SpendBudget;
import com.sandboxgateway.budget.TurnBudget;
import com.sandboxgateway.containers.ContainerRules;
import com.sandboxgateway.containers.ExpiryRules;
import com.sandboxgateway.containers.FilesDeletedAfterUse;
import com.sandboxgateway.ownership.OwnedListFilter;
import com.sandboxgateway.ownership.Ownership;
import com.sandboxgateway.ownership.OwnershipCheck;
import com.sandboxgateway.ownership.OwnershipRecorder;
import com.sandboxgateway.ownership.OwnershipStore;
import com.sandboxgateway.policy.AfterAnswer;
import com.sandboxgateway.policy.OnRoutes;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.ResponseInspector;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.policy.input.FileUrls;
import com.sandboxgateway.policy.input.UnsupportedInputs;
import com.sandboxgateway.ratelimit.RateLimits;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.sanitize.FileSanitizer;
import com.sandboxgateway.sanitize.InjectionScreening;
import com.sandboxgateway.sanitize.InlineFiles;
import com.sandboxgateway.sanitize.Pseudonymizer;
import com.sandboxgateway.sanitize.SafetyIdentifier;
import com.sandboxgateway.sanitize.UploadSanitizer;
import com.sandboxgateway.secrets.PromptGuard;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.TextGuard;
import com.sandboxgateway.skills.ContainerSkills;
import com.sandboxgateway.skills.SkillPolicies;
import com.sandboxgateway.skills.SkillUploads;
import com.sandboxgateway.state.StateFailures;
import com.sandboxgateway.state.StateProperties;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.tracing.RequestTracing;
import com.sandboxgateway.upstream.FileFetcher;
import com.sandboxgateway.upstream.UpstreamClient;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request pipeline, in order, in one place: the steps a request passes before it goes upstream,
 * the inspectors its answer passes before the client sees it, and the after-answer actions (further calls
 * to the upstream because of an answer); each with the routes it applies to. The inspectors stage their writes
 * (audit records, owner rows, charges) and counter moves in the exchange's settlement, which the chain makes
 * once they have all seen an answer: one transaction, one round trip for the counters.
 */
@Configuration(proxyBeanMethods = false)
class PipelineConfiguration {

    /** Creating, fetching and cancelling a response: the answers that show a response object. */
    private static final Set<Route> RESPONSES = EnumSet.of(RESPONSES_CREATE, RESPONSE_GET, RESPONSE_CANCEL);
    /** The routes whose bodies carry model or sandbox input (texts, files, tools): see {@code Exchange.inputs()}. */
    private static final Set<Route> MODEL_INPUT = EnumSet.of(RESPONSES_CREATE, CONTAINERS_CREATE, CONVERSATIONS_CREATE,
            CONVERSATION_UPDATE, CONVERSATION_ITEMS_CREATE);
    /** The routes whose answers create, show or delete an object someone owns. */
    private static final Set<Route> OBJECTS_MADE_OR_DELETED = union(RESPONSES, EnumSet.of(RESPONSE_DELETE, FILES_UPLOAD,
            FILE_DELETE, CONTAINERS_CREATE, CONTAINER_DELETE, CONTAINER_FILES_CREATE, CONTAINER_FILE_DELETE, CONVERSATIONS_CREATE,
            CONVERSATION_DELETE, CONVERSATION_ITEMS_CREATE, CONVERSATION_ITEMS_LIST, CONVERSATION_ITEM_GET, CONVERSATION_ITEM_DELETE,
            SKILLS_CREATE, SKILL_DELETE));
    /** The routes that take a file upload. */
    private static final Set<Route> UPLOADS = EnumSet.of(FILES_UPLOAD, CONTAINER_FILES_CREATE);

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** The one client for files apps name by URL; it shares nothing with the upstream's. */
    @Bean(destroyMethod = "close")
    FileFetcher fileFetcher(PolicyProperties policy) {
        PolicyProperties.FileUrls urls = policy.org().files().fileUrls();
        return new FileFetcher(urls.fetchFrom(), urls.connectTimeout(), urls.readTimeout(),
                policy.org().files().maxUploadSize().toBytes());
    }

    @Bean
    PolicyChain policyChain(PolicyProperties policy, TeamPolicies teams, Ownership ownership, OwnershipStore ownershipStore,
                            UpstreamClient upstream, JsonMapper json, ApplicationEventPublisher events, Clock clock,
                            JdbcClient jdbc, RateLimits rateLimits, Budgets budgets, Sessions sessions, SpendBudget spend,
                            TurnBudget turns, StateProperties state,
                            InjectionDetector injectionDetector, MeterRegistry meters, CodeExecutionAuditor codeAuditor,
                            RunawaySessions runawaySessions, RequestTracing tracing,
                            SafetyIdentifier safetyIdentifier, FileFetcher fileFetcher, GroupCommit commits) {
        Pseudonymizer pseudonymizer = Pseudonymizer.fromPolicy(policy.org().sanitization(),
                policy.org().pii().action() == PolicyProperties.PiiAction.PSEUDONYMIZE);
        SecretScanner scanner = SecretScanner.standard();
        Supplier<TextGuard> guards = () -> new TextGuard(scanner, policy.org().secrets().action(), policy.org().pii().action(),
                pseudonymizer == null ? null : pseudonymizer::pseudonym);
        InjectionScreening injection = new InjectionScreening(injectionDetector, policy.org().injection().action(), meters);
        FileSanitizer files = new FileSanitizer(policy, pseudonymizer, guards, scanner, json, injection, events, clock);
        SkillPolicies skills = new SkillPolicies(policy);
        Admission admission = new Admission(budgets, teams, rateLimits, spend, turns, new StateFailures(state.onFailure()), clock,
                EnumSet.of(RESPONSES_CREATE, CONTAINERS_CREATE), EnumSet.of(RESPONSES_CREATE));
        List<OnRoutes<RequestStep>> steps = List.of(
                // A new response's session before the admission, which reserves its turns there.
                on(sessions, EnumSet.of(RESPONSES_CREATE)),
                // Rate limits, spend caps and turn budgets in one call to the state, before any costly step.
                always(admission),
                // A stored response's session (where its code is audited) after the admission, whose turns left are
                // the X-Gateway-Session's named; the turn budget shows the stored response's once it is answered.
                on(sessions, EnumSet.of(RESPONSE_GET, RESPONSE_CANCEL)),
                on(new ContainerRules(teams), EnumSet.of(RESPONSES_CREATE, CONTAINERS_CREATE)),
                // After the tool policy, so a tool a team may not use is named as such.
                on(new UnsupportedInputs(policy.org().unknownInput(), events, clock), MODEL_INPUT),
                always(new OwnershipCheck(ownership)),
                on(new PromptGuard(guards, events, clock), MODEL_INPUT),
                on(new ExpiryRules(policy, teams), EnumSet.of(FILES_UPLOAD, CONTAINERS_CREATE)),
                // After every step that sets a rule for an upload's form fields: it reads the whole upload.
                on(new UploadSanitizer(files), UPLOADS),
                // Before the inline-file rules, which sanitize what it fetched.
                on(new FileUrls(fileFetcher), MODEL_INPUT),
                on(new InlineFiles(files), MODEL_INPUT),
                // Reads the whole skill upload, as the upload step reads a file's.
                on(new SkillUploads(skills, files), EnumSet.of(SKILLS_CREATE, SKILL_VERSIONS_CREATE)),
                on(new ContainerSkills(skills, ownership, files), MODEL_INPUT),
                on(new CodeOutputsRequested(), EnumSet.of(RESPONSES_CREATE, RESPONSE_GET)),
                on(safetyIdentifier, EnumSet.of(RESPONSES_CREATE)),
                // Last: a session stopped here gets its reservation back (TurnBudget.onFinish).
                on(runawaySessions, EnumSet.of(RESPONSES_CREATE)));
        List<OnRoutes<ResponseInspector>> inspectors = List.of(
                on(turns, RESPONSES),
                on(spend, union(RESPONSES, EnumSet.of(CONTAINERS_CREATE))),
                on(codeAuditor, RESPONSES),
                on(new OwnershipRecorder(ownershipStore), OBJECTS_MADE_OR_DELETED),
                on(tracing, EnumSet.of(RESPONSES_CREATE, RESPONSE_GET)));
        List<OnRoutes<AfterAnswer>> afterAnswers = new ArrayList<>(List.of(
                on(new OwnedListFilter(ownership, upstream, json), EnumSet.of(FILES_LIST, CONTAINERS_LIST, SKILLS_LIST))));
        if (policy.org().files().deleteAfterUse()) {
            afterAnswers.add(on(new FilesDeletedAfterUse(upstream, ownershipStore, jdbc), RESPONSES));
        }
        return new PolicyChain(steps, inspectors, afterAnswers, tracing, commits);
    }

    private static Set<Route> union(Set<Route> first, Set<Route> second) {
        EnumSet<Route> union = EnumSet.copyOf(first);
        union.addAll(second);
        return union;
    }
}
