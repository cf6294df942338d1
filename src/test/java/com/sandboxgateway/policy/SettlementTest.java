package com.sandboxgateway.policy;

import static com.sandboxgateway.policy.OnRoutes.always;
import static com.sandboxgateway.support.Exchanges.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.store.GroupCommit;
import com.sandboxgateway.support.Exchanges;

/** The unit of work of one answer, settled by the chain: no Spring, no database (a transaction is a counted call). */
class SettlementTest {

    private final List<String> happened = new ArrayList<>();
    private final Settlement.Batch<String> counters = changes -> happened.add("counters moved by " + changes);

    @Test
    void shouldWriteWhatEveryInspectorStagedInOneTransactionBeforeTheAfterAnswerActions() {
        Transactions transactions = new Transactions(false);
        PolicyChain chain = new PolicyChain(List.of(), List.of(
                always((exchange, answer) -> exchange.settlement().write(write("turn charge", true))),
                always((exchange, answer) -> exchange.settlement().write(write("audit record", false)))),
                List.of(always((exchange, answer) -> {
                    happened.add("after answer");
                    return answer;
                })), ChainObserver.NONE, new GroupCommit(transactions));

        chain.answered(Exchanges.on(Route.RESPONSES_CREATE), Answer.ofJson(tree("{\"id\":\"resp_1\"}"), true));

        assertThat(transactions.begun).isEqualTo(1);
        assertThat(happened).containsExactly("wrote turn charge", "wrote audit record", "turn charge is new",
                "audit record was held already", "after answer");
    }

    @Test
    void shouldMoveEveryCounterOfTheAnswerInOneCallAfterTheWrites() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);
        Settlement settlement = exchange.settlement();
        settlement.write(new Written("spend charge", true) {
            @Override
            public void written(boolean fresh) {
                super.written(fresh);
                settlement.change(counters, "spend +30000");
            }
        });
        settlement.change(counters, "turns -999");

        settlement.settle(new GroupCommit(new Transactions(false)));

        assertThat(happened).containsExactly("wrote spend charge", "spend charge is new", "counters moved by [turns -999, spend +30000]");
    }

    @Test
    void shouldGiveEveryWriteItsFallbackWhenTheTransactionFailsAndStillMoveTheCounters() {
        Settlement settlement = Exchanges.on(Route.RESPONSES_CREATE).settlement();
        settlement.write(new Written("audit record", true) {
            @Override
            public void failed(RuntimeException cause) {
                super.failed(cause);
                throw new GatewayException(ErrorCode.AUDIT_UNAVAILABLE, "neither database nor spool");
            }
        });
        settlement.write(new Written("owner rows", true));
        settlement.change(counters, "turns -999");

        assertThatThrownBy(() -> settlement.settle(new GroupCommit(new Transactions(true))))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE));
        assertThat(happened).containsExactly("audit record falls back after DataAccessResourceFailureException",
                "owner rows falls back after DataAccessResourceFailureException", "counters moved by [turns -999]");
    }

    @Test
    void shouldTouchNeitherDatabaseNorCountersWhenNothingWasStaged() {
        Transactions transactions = new Transactions(false);
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);

        exchange.settlement().settle(new GroupCommit(transactions));

        assertThat(transactions.begun).isZero();
        assertThat(happened).isEmpty();
    }

    @Test
    void shouldSettleOnlyWhatWasStagedSinceTheLastAnswer() {
        Settlement settlement = Exchanges.on(Route.RESPONSES_CREATE).settlement();
        GroupCommit commits = new GroupCommit(new Transactions(false));
        settlement.write(write("owner rows of response.created", true));
        settlement.settle(commits);
        settlement.write(write("turn charge of response.completed", true));

        settlement.settle(commits);

        assertThat(happened).containsExactly("wrote owner rows of response.created", "owner rows of response.created is new",
                "wrote turn charge of response.completed", "turn charge of response.completed is new");
    }

    private Settlement.Write write(String what, boolean fresh) {
        return new Written(what, fresh);
    }

    /** A write that notes what happens to it. */
    private class Written implements Settlement.Write {

        private final String what;
        private final boolean fresh;

        Written(String what, boolean fresh) {
            this.what = what;
            this.fresh = fresh;
        }

        @Override
        public boolean write() {
            happened.add("wrote " + what);
            return fresh;
        }

        @Override
        public void written(boolean isNew) {
            happened.add(what + (isNew ? " is new" : " was held already"));
        }

        @Override
        public void failed(RuntimeException cause) {
            happened.add(what + " falls back after " + cause.getClass().getSimpleName());
        }
    }

    /** Transactions that only count themselves, or fail as a database that went away does. */
    private static final class Transactions implements TransactionOperations {

        private final boolean fail;
        private int begun;

        Transactions(boolean fail) {
            this.fail = fail;
        }

        @Override
        public <T> T execute(TransactionCallback<T> action) throws TransactionException {
            begun++;
            if (fail) {
                throw new DataAccessResourceFailureException("connection refused");
            }
            return action.doInTransaction(null);
        }
    }
}
