// The real FlowAgentType of @memberjunction/ai-agents 5.51.3, driven one JSON line at a time.
//
// argv[2]: the cache folder holding node_modules/@memberjunction/{ai-agents,aiengine,actions,...}.
// Input lines: {"world": {...}} replaces the engine's cached rows (agents, steps, paths,
// actions) the way AIEngine and ActionEngineServer hold them after loading from the database;
// {"case": {...}} asks for the run's first step ("op": "start") or for what the run does after
// a step returned a result ("op": "hop"). Only BaseAgent's part around the agent type is written
// here: its refusal of an agent that is not Active, its stop on a terminating decision, and its
// hand-back of a non-terminating failed decision to PreProcessNextStep, counted up to
// MAX_CONSECUTIVE_FAILED_STEPS. Every routing decision is FlowAgentType's own.
import readline from 'node:readline';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.argv[2];
const mod = (p) => import(pathToFileURL(path.join(root, 'node_modules', p)).href);
const { FlowAgentType, FlowExecutionState } = await mod('@memberjunction/ai-agents/dist/agent-types/flow-agent-type.js');
const { AIEngine } = await mod('@memberjunction/aiengine/dist/index.js');
const { ActionEngineServer } = await mod('@memberjunction/actions/dist/index.js');
// BaseAgent.MAX_CONSECUTIVE_FAILED_STEPS: base-agent.js itself imports packages the
// reachable registry does not carry, so the value is given here
const MAX_FAILED = 10;

// the engines log through console ("Path condition failed: ..."); answers go to stdout, and
// the logs are not needed
const quiet = () => {};
console.log = quiet; console.info = quiet; console.warn = quiet; console.debug = quiet;
console.error = quiet;

const base = AIEngine.Instance.Base;
const actions = ActionEngineServer.Instance;
let world = null;

function load(w) {
  world = w;
  base._agents = w.agents;
  base._agentSteps = w.steps;
  base._agentStepPaths = w.paths;
  actions.Base._Actions = w.actions;
}

function stepName(id) {
  const s = world.steps.find((x) => x.ID === id);
  return s ? s.Name : null;
}

const NODE_STEPS = new Set(['Actions', 'Sub-Agent', 'ForEach', 'While']);

// one agent type for every case: its state lives in the FlowExecutionState each case makes
const ft = new FlowAgentType();
let entered = null;
const create = ft.createStepForFlowNode.bind(ft);
// watch which step is entered (the agent type's own method still does the work)
ft.createStepForFlowNode = async (params, node, payload, state) => {
  entered = node;
  return create(params, node, payload, state);
};

async function run(c) {
  entered = null;
  const agent = world.agents.find((a) => a.ID === c.agentId);
  const params = {
    agent, payload: c.payload, data: c.data, context: c.context, conversationMessages: [],
  };
  const state = new FlowExecutionState(c.agentId);
  const answer = (o) => ({ winner: null, ended: false, failed: false, message: null, entered_failure: null, attempts: 0, ...o });
  let decision;
  let failures = 0;
  let attempts = 0;
  try {
    if (c.op === 'start') {
      if (agent.Status !== 'Active') {
        return answer({ ended: true, failed: true, message: `Agent '${agent.Name}' is not active. Current status: ${agent.Status}` });
      }
      decision = await ft.DetermineInitialStep(params, c.payload, state);
    } else {
      for (const id of c.flowContext?.completedSteps ?? []) state.completedStepIds.add(id);
      state.executionPath = [...(c.flowContext?.executionPath ?? [])];
      state.currentStepId = c.fromId;
      const sr = c.stepResult;
      if (sr && sr.terminate) {
        return answer({ ended: true, failed: sr.step === 'Failed', message: sr.errorMessage ?? sr.message ?? null });
      }
      if (sr && sr.step === 'Failed') failures = 1;
      const from = world.steps.find((x) => x.ID === c.fromId);
      if (from && from.StepType === 'Prompt' && sr && sr.step === 'Success') {
        // a prompt's reply goes through DetermineNextStep (BaseAgent's executePromptStep)
        decision = await ft.DetermineNextStep({ success: true, result: sr.result }, params, c.payload ?? {}, state);
        if (decision.step === 'Chat') return answer({ ended: true, message: 'Chat', attempts: 1 });
      } else {
        decision = await ft.PreProcessNextStep(params, sr, c.payload, state);
      }
    }
    attempts = 1;
    for (;;) {
      if (decision === null) return answer({ ended: true, message: 'not routed', attempts });
      if (entered) {
        const failedAtOnce = decision.step === 'Failed' ? decision.errorMessage : null;
        return answer({ winner: entered.ID, winnerName: entered.Name, entered_failure: failedAtOnce, attempts, kind: decision.step });
      }
      if (decision.step === 'Failed' && decision.terminate) {
        return answer({ ended: true, failed: true, message: decision.errorMessage ?? null, attempts });
      }
      if (decision.step === 'Success' && decision.terminate) {
        return answer({ ended: true, message: decision.message ?? null, attempts });
      }
      if (decision.step !== 'Failed') {
        return answer({ ended: true, message: `unexpected decision ${decision.step}`, attempts });
      }
      failures += 1;
      if (failures >= MAX_FAILED) {
        return answer({ ended: true, failed: true, attempts,
          message: `Agent terminated after ${failures} consecutive failed steps. Last error: ${decision.errorMessage || 'Unknown'}` });
      }
      decision = await ft.PreProcessNextStep(params, decision, decision.newPayload || decision.previousPayload, state);
      attempts += 1;
    }
  } catch (e) {
    return answer({ ended: true, failed: true, fatal: true, message: String(e && e.message ? e.message : e), attempts,
      winner: entered ? entered.ID : null });
  }
}

const { PayloadManager } = await mod('@memberjunction/ai-agents/dist/PayloadManager.js');
const payloads = new PayloadManager();

// A whole run: each entered step returns what the case's outcomes say, built as BaseAgent
// builds it; the payload changes go through the agent type's PostProcessActionStep and
// DetermineNextStep and PayloadManager's own update, the routing through the agent type.
async function wholeRun(c) {
  entered = null;
  const agent = world.agents.find((a) => a.ID === c.agentId);
  const initial = c.payload ?? {};
  const params = { agent, payload: initial, data: c.data, context: c.context, conversationMessages: [] };
  const state = new FlowExecutionState(c.agentId);
  const steps = [];
  const done = (end, message, payload) => ({ steps, end, message: message ?? null, payload });
  if (agent.Status !== 'Active') return done('failed', `Agent '${agent.Name}' is not active. Current status: ${agent.Status}`, initial);
  let current = initial;
  let failures = 0;
  let decision;
  const route = async (sr, payloadArg) => { entered = null; return ft.PreProcessNextStep(params, sr, payloadArg, state); };
  try {
    decision = await ft.DetermineInitialStep(params, initial, state);
    for (;;) {
      if (entered) {
        const node = entered;
        entered = null;
        // the step runs on the payload its decision carries (BaseAgent passes it on)
        if (decision.newPayload) current = decision.newPayload;
        if (steps.length >= c.maxSteps) return done('limit', null, current);
        steps.push(node.Name);
        if (decision.step === 'Failed') {
          failures += 1;
          if (failures >= MAX_FAILED) return done('failed', `Agent terminated after ${failures} consecutive failed steps. Last error: ${decision.errorMessage || 'Unknown'}`, current);
          decision = await route(decision, decision.newPayload || decision.previousPayload);
          continue;
        }
        failures = 0;
        // a fresh copy: a prompt's reply is merged into the payload object in place
        const given = c.outcomes[node.Name];
        const outcome = given !== undefined ? structuredClone(given) : (c.defaults ? {} : null);
        if (outcome === null) return done('uncovered', null, current);
        let sr;
        if ('stepResult' in outcome) {
          sr = outcome.stepResult;
          current = (sr && sr.newPayload) || current;
        } else if (node.StepType === 'Action') {
          const outputs = outcome.outputs ?? {};
          const success = outcome.success ?? true;
          const results = [{ Params: Object.entries(outputs).map(([Name, Value]) => ({ Name, Value, Type: 'Output' })) }];
          const before = decision.previousPayload;
          const change = await ft.PostProcessActionStep(results, [], current, state, decision);
          if (change) current = payloads.applyAgentChangeRequest(current, change, { logChanges: false, analyzeChanges: true, generateDiff: true }).result;
          sr = { terminate: false, step: 'Retry', previousPayload: before || null, newPayload: current,
            priorStepResult: [{ actionName: world.actions.find((a) => a.ID === node.ActionID)?.Name, success,
              params: results[0].Params, resultCode: success ? 'SUCCESS' : 'ERROR',
              message: outcome.message || (success ? 'Action completed' : 'Unknown error') }],
            retryReason: success ? 'Analyzing results from 1 completed action(s) to formulate response'
              : `Processing results with 1 failed action(s): ${world.actions.find((a) => a.ID === node.ActionID)?.Name}` };
        } else if (node.StepType === 'Prompt') {
          const reply = 'reply' in outcome ? outcome.reply : {};
          decision = await ft.DetermineNextStep({ success: true, result: reply }, params, current, state);
          if (decision.step === 'Chat') return done('chat', null, current);
          continue;
        } else if (node.StepType === 'Sub-Agent') {
          if (outcome.chat) return done('chat', null, current);
          const success = outcome.success ?? true;
          const after = 'payload' in outcome ? outcome.payload : current;
          sr = { success, payload: after, step: success ? 'Success' : 'Failed', terminate: false, previousPayload: after, newPayload: after };
          current = after;
        } else {
          current = 'payload' in outcome ? outcome.payload : current;
          sr = { step: 'Retry', terminate: false, newPayload: current };
        }
        if (sr && sr.terminate) return done(sr.step === 'Failed' ? 'failed' : 'ended', sr.errorMessage ?? sr.message, current);
        if (sr && sr.step === 'Failed') failures += 1;
        decision = await route(sr, sr.newPayload || sr.previousPayload);
        continue;
      }
      if (decision === null) return done('ended', 'not routed', current);
      if (decision.step === 'Failed' && decision.terminate) return done('failed', decision.errorMessage, current);
      if (decision.step === 'Success' && decision.terminate) return done('ended', decision.message, decision.newPayload || current);
      if (decision.step !== 'Failed') return done('ended', `unexpected decision ${decision.step}`, current);
      failures += 1;
      if (failures >= MAX_FAILED) return done('failed', `Agent terminated after ${failures} consecutive failed steps. Last error: ${decision.errorMessage || 'Unknown'}`, current);
      decision = await route(decision, decision.newPayload || decision.previousPayload);
    }
  } catch (e) {
    if (entered) steps.push(entered.Name);
    return done('failed', 'threw: ' + String(e && e.message ? e.message : e), current);
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  if (msg.world) { load(msg.world); continue; }
  const out = msg.case.op === 'run' ? await wholeRun(msg.case) : await run(msg.case);
  process.stdout.write(JSON.stringify(out) + '\n');
}
