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
      decision = await ft.PreProcessNextStep(params, sr, c.payload, state);
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

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  if (msg.world) { load(msg.world); continue; }
  const out = await run(msg.case);
  process.stdout.write(JSON.stringify(out) + '\n');
}
