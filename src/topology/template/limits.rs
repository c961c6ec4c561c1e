//! The limits a template renders within: one type, one error.
//!
//! A ClusterClass is input from Git, and a Go template is a small program: ten `replace` calls
//! can each multiply a string's length by ten, forty `define`s that each call the next twice
//! make 2^40 calls. CAPI's controller would spin or run out of memory on such a class; ipreuse
//! must stop with an error that names the patch and the limit, and return every item. The
//! limits are far above what a real class template needs (the largest public ones render a few
//! hundred bytes in a few dozen steps) and low enough that any template the ClusterClass CRD
//! admits renders in well under a second and a few megabytes.

/// Which limit a render passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Function calls, template calls and range iterations, and what the calls read and make
    /// (by the KiB of text made, the 16 bytes of text read, the element of lists and maps
    /// read, the unit of a regular expression's program compiled or searched with), together.
    Steps,
    /// The length of one string a function makes.
    StringBytes,
    /// The length of the rendered text.
    OutputBytes,
    /// The length of the template's text.
    TemplateBytes,
    /// Nested `{{template}}` calls.
    Depth,
    /// Blocks, parentheses and template calls nested in one another (the parser's and the
    /// executor's recursion, which the render thread's stack is sized for).
    Nesting,
    /// Lists and maps nested in one another in a value a function makes (`list`, `dict`):
    /// deeper values would exhaust the stack when printed, compared or freed.
    ValueDepth,
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limit::Steps => {
                "steps (function calls, template calls, range iterations and the text they read or make)"
            }
            Limit::StringBytes => "bytes in one string",
            Limit::OutputBytes => "bytes of rendered text",
            Limit::TemplateBytes => "characters of template text",
            Limit::Depth => "nested template calls",
            Limit::Nesting => "levels of nesting (blocks, parentheses and template calls)",
            Limit::ValueDepth => "levels of lists and maps nested in one another",
        })
    }
}

/// The limits of one render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub steps: u64,
    pub string_bytes: usize,
    pub output_bytes: usize,
    /// The length of the template text, in characters (as the CRD's maxLength counts).
    pub template_bytes: usize,
    pub depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            steps: 1_000_000,
            string_bytes: 1 << 20,
            output_bytes: 1 << 20,
            // The longest text CAPI admits: the ClusterClass CRD's maxLength of
            // `valueFrom.template` (10240; `enabledIf` has 256), kubernetes-sigs/cluster-api
            // `api/core/v1beta2/clusterclass_types.go` (`+kubebuilder:validation:MaxLength=10240`
            // on `JSONPatchValue.Template`), as `config/crd/bases/cluster.x-k8s.io_clusterclasses.yaml`
            // generates it. Counted in characters, as the CRD's maxLength counts.
            template_bytes: CRD_TEMPLATE_MAX_LENGTH,
            // Go allows 100000 nested template calls (exec.go `maxExecDepth`); ours stays
            // under the 6000 levels of nesting (blocks, parentheses and template calls
            // together) the render thread's stack is sized for, so that the call depth, not
            // the stack, is what a runaway recursion meets.
            depth: 5_000,
        }
    }
}

impl Limits {
    /// Whether a string of `len` bytes may be made.
    ///
    /// # Errors
    /// [`FuncError::Limit`] past [`Limits::string_bytes`].
    pub fn check_string(&self, len: usize) -> Result<(), FuncError> {
        if len > self.string_bytes {
            return Err(FuncError::Limit {
                limit: Limit::StringBytes,
                max: self.string_bytes as u64,
            });
        }
        Ok(())
    }
}

/// The steps a function whose work grows with more than its arguments' length may take (the
/// regular expression functions: compiling and each search), taken before the work is done.
#[derive(Debug)]
pub struct Meter {
    left: u64,
    used: u64,
    max: u64,
}

impl Meter {
    /// `left` steps of a render whose limit is `max`.
    #[must_use]
    pub fn new(left: u64, max: u64) -> Self {
        Meter { left, used: 0, max }
    }

    /// Takes `steps`.
    ///
    /// # Errors
    /// [`FuncError::Limit`] of [`Limit::Steps`] when fewer are left.
    pub fn take(&mut self, steps: u64) -> Result<(), FuncError> {
        if steps > self.left {
            self.used += self.left;
            self.left = 0;
            return Err(FuncError::Limit {
                limit: Limit::Steps,
                max: self.max,
            });
        }
        self.left -= steps;
        self.used += steps;
        Ok(())
    }

    /// The steps taken.
    #[must_use]
    pub fn used(&self) -> u64 {
        self.used
    }
}

/// Why a function (Go's builtins, `fmt`, sprig's) gave no value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FuncError {
    /// It refused its arguments, as Go's would (the message is Go's, or close to it).
    #[error("{0}")]
    Failed(String),
    /// A value it would make passes a limit.
    #[error("the template passes the limit of {max} {limit}")]
    Limit { limit: Limit, max: u64 },
    /// It was given (or would print) a builtin variable only known once CAPI creates the
    /// objects.
    #[error(
        "it reads {0}, which CAPI only knows once it creates the objects (a generated name or uid), so it cannot be evaluated from Git; read another variable"
    )]
    Unknown(String),
    /// Go does it, ipreuse does not evaluate it (rather than give a different value).
    #[error("{0} is not evaluated by ipreuse")]
    Unsupported(String),
}

/// The `maxLength` the ClusterClass CRD gives `valueFrom.template` (cluster-api
/// `core/config/crd/bases/cluster.x-k8s.io_clusterclasses.yaml`, v1beta1 and v1beta2): the API
/// server refuses a longer one, so no Cluster is ever stamped with it.
pub const CRD_TEMPLATE_MAX_LENGTH: usize = 10240;

/// The `maxLength` the ClusterClass CRD gives `enabledIf` (the same file).
pub const CRD_ENABLED_IF_MAX_LENGTH: usize = 256;
