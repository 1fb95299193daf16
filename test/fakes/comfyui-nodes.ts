/**
 * @module The fake ComfyUI's node classes (the shipped workflows' classes, /object_info shape) and
 * its POST /prompt validation, with the 400 bodies of protocols/comfyui.md §2.
 */

type InputSpec = [string | string[], Record<string, unknown>?];
interface NodeClass {
  required: Record<string, InputSpec>;
  output: string[];
  output_node?: boolean;
  category: string;
  /** Inputs checked by the class's own VALIDATE_INPUTS instead of the combo list (LoadImage). */
  custom?: (input: string, value: unknown) => string | undefined;
}

const SAMPLERS = ["euler", "euler_ancestral", "heun", "dpmpp_2m", "dpmpp_2m_sde", "ddim"];
const SCHEDULERS = ["normal", "karras", "exponential", "simple"];
const STOCK_CHECKPOINTS = ["v1-5-pruned-emaonly.safetensors", "sd_xl_base_1.0.safetensors"];
/** Installed checkpoints (the combo list of CheckpointLoaderSimple.ckpt_name). */
const checkpoints = [...STOCK_CHECKPOINTS];

/** Pretend the models are installed (default) or missing. */
export function setModelsPresent(present: boolean): void {
  checkpoints.splice(0, checkpoints.length, ...(present ? STOCK_CHECKPOINTS : []));
}

/** Names of input files (uploads plus the stock example), consulted by LoadImage. */
export const inputFiles = new Set<string>(["example.png"]);

export const CLASSES: Record<string, NodeClass> = {
  CheckpointLoaderSimple: {
    required: { ckpt_name: [checkpoints] },
    output: ["MODEL", "CLIP", "VAE"],
    category: "loaders",
  },
  CLIPTextEncode: {
    required: { text: ["STRING", { multiline: true, dynamicPrompts: true }], clip: ["CLIP"] },
    output: ["CONDITIONING"],
    category: "conditioning",
  },
  EmptyLatentImage: {
    required: {
      width: ["INT", { default: 512, min: 16, max: 16384, step: 8 }],
      height: ["INT", { default: 512, min: 16, max: 16384, step: 8 }],
      batch_size: ["INT", { default: 1, min: 1, max: 4096 }],
    },
    output: ["LATENT"],
    category: "latent",
  },
  KSampler: {
    required: {
      model: ["MODEL"],
      seed: ["INT", { default: 0, min: 0, max: Number("18446744073709551615"), control_after_generate: true }],
      steps: ["INT", { default: 20, min: 1, max: 10000 }],
      cfg: ["FLOAT", { default: 8.0, min: 0.0, max: 100.0, step: 0.1, round: 0.01 }],
      sampler_name: [SAMPLERS],
      scheduler: [SCHEDULERS],
      positive: ["CONDITIONING"],
      negative: ["CONDITIONING"],
      latent_image: ["LATENT"],
      denoise: ["FLOAT", { default: 1.0, min: 0.0, max: 1.0, step: 0.01 }],
    },
    output: ["LATENT"],
    category: "sampling",
  },
  VAEDecode: { required: { samples: ["LATENT"], vae: ["VAE"] }, output: ["IMAGE"], category: "latent" },
  VAEEncode: { required: { pixels: ["IMAGE"], vae: ["VAE"] }, output: ["LATENT"], category: "latent" },
  SaveImage: {
    required: { images: ["IMAGE"], filename_prefix: ["STRING", { default: "ComfyUI" }] },
    output: [],
    output_node: true,
    category: "image",
  },
  PreviewImage: { required: { images: ["IMAGE"] }, output: [], output_node: true, category: "image" },
  LoadImage: {
    required: { image: [[...inputFiles], { image_upload: true }] },
    output: ["IMAGE", "MASK"],
    category: "image",
    custom: (_input, value) => (inputFiles.has(String(value)) ? undefined : `Invalid image file: ${String(value)}`),
  },
};

/** GET /object_info[/{class}] body. */
export function objectInfo(only?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, c] of Object.entries(CLASSES)) {
    if (only && only !== name) continue;
    const required = { ...c.required };
    if (name === "LoadImage") required.image = [[...inputFiles].toSorted(), { image_upload: true }];
    out[name] = {
      input: { required },
      input_order: { required: Object.keys(required) },
      output: c.output,
      output_is_list: c.output.map(() => false),
      output_name: c.output,
      name,
      display_name: name,
      description: "",
      python_module: "nodes",
      category: c.category,
      output_node: c.output_node ?? false,
    };
  }
  return out;
}

type Err = { type: string; message: string; details: string; extra_info: Record<string, unknown> };
type Prompt = Record<string, { class_type?: unknown; inputs?: Record<string, unknown> }>;

const err = (type: string, message: string, details = "", extra: Record<string, unknown> = {}): Err => ({
  type,
  message,
  details,
  extra_info: extra,
});

function checkInput(prompt: Prompt, cls: NodeClass, name: string, spec: InputSpec, value: unknown): Err | undefined {
  const [type, opts = {}] = spec;
  const extra = { input_name: name, input_config: spec, received_value: value };
  if (value === undefined)
    return err("required_input_missing", "Required input is missing", name, { input_name: name });
  if (Array.isArray(value)) {
    if (value.length !== 2 || typeof value[0] !== "string" || typeof value[1] !== "number")
      return err("bad_linked_input", "Bad linked input, must be a length-2 list of [node_id, slot_index]", name, extra);
    const src = prompt[value[0]];
    const srcCls = typeof src?.class_type === "string" ? CLASSES[src.class_type] : undefined;
    if (!src || !srcCls) return err("exception_during_validation", "Exception when validating node", `'${value[0]}'`);
    const got = srcCls.output[value[1]];
    if (got !== type) {
      const d = `${name}, received_type(${got}) mismatch input_type(${String(type)})`;
      return err("return_type_mismatch", "Return type mismatch between linked nodes", d, extra);
    }
    return undefined;
  }
  const custom = cls.custom?.(name, value);
  if (cls.custom)
    return custom
      ? err("custom_validation_failed", "Custom validation failed for node", `${name} - ${custom}`, extra)
      : undefined;
  if (Array.isArray(type)) {
    if (type.includes(String(value))) return undefined;
    const list = type.length > 20 ? `(list of length ${type.length})` : `[${type.map((t) => `'${t}'`).join(", ")}]`;
    return err("value_not_in_list", "Value not in list", `${name}: '${String(value)}' not in ${list}`, extra);
  }
  if (type === "INT" || type === "FLOAT") {
    const n = typeof value === "number" ? value : Number(value);
    if (!Number.isFinite(n) || (type === "INT" && !Number.isInteger(n)))
      return err(
        "invalid_input_type",
        `Failed to convert an input value to a ${type} value`,
        `${name}, ${String(value)}`,
        extra,
      );
    if (typeof opts.min === "number" && n < opts.min)
      return err("value_smaller_than_min", `Value ${n} smaller than min of ${opts.min}`, name, extra);
    if (typeof opts.max === "number" && n > opts.max)
      return err("value_bigger_than_max", `Value ${n} bigger than max of ${opts.max}`, name, extra);
  }
  return undefined;
}

/** Validate a prompt; undefined when it may run, else the 400 body. */
export function validatePrompt(prompt: unknown): Record<string, unknown> | undefined {
  if (!prompt || typeof prompt !== "object") {
    const e = err("no_prompt", "No prompt provided", "No prompt provided");
    return { error: e, node_errors: {} };
  }
  const p = prompt as Prompt;
  for (const [id, node] of Object.entries(p)) {
    if (typeof node?.class_type !== "string") {
      return {
        error: err(
          "invalid_prompt",
          "Cannot execute because a node is missing the class_type property.",
          `Node ID '#${id}'`,
        ),
        node_errors: {},
      };
    }
    if (!CLASSES[node.class_type]) {
      const e = err(
        "invalid_prompt",
        `Cannot execute because node ${node.class_type} does not exist.`,
        `Node ID '#${id}'`,
      );
      return { error: e, node_errors: {} };
    }
  }
  const outputs = Object.keys(p).filter((id) => CLASSES[String(p[id]?.class_type)]?.output_node);
  if (outputs.length === 0) return { error: err("prompt_no_outputs", "Prompt has no outputs"), node_errors: {} };
  const nodeErrors: Record<string, { errors: Err[]; dependent_outputs: string[]; class_type: string }> = {};
  for (const [id, node] of Object.entries(p)) {
    const cls = CLASSES[String(node.class_type)];
    if (!cls) continue;
    const errors: Err[] = [];
    for (const [name, spec] of Object.entries(cls.required)) {
      const e = checkInput(p, cls, name, spec, node.inputs?.[name]);
      if (e) errors.push(e);
    }
    if (errors.length) nodeErrors[id] = { errors, dependent_outputs: outputs, class_type: String(node.class_type) };
  }
  if (Object.keys(nodeErrors).length === 0) return undefined;
  const onOutputs = outputs.flatMap((o) => nodeErrors[o]?.errors ?? []).map((e) => `${e.message}: ${e.details}`);
  return {
    error: err("prompt_outputs_failed_validation", "Prompt outputs failed validation", onOutputs.join("\n")),
    node_errors: nodeErrors,
  };
}
