//! An engine seat: starts the engine of its configuration with the client
//! of its protocol when needed, and again after a crash.

use super::cecp::Cecp;
use super::client::{Client, VariantSpec};
use super::config::{EngineConfig, Proto};
use super::process::{Launch, Log, Process};
use super::uci::Uci;
use super::usi::Usi;

/// An engine seat: its configuration and, while it runs, its client.
pub struct Seat {
    /// What to start.
    pub cfg: EngineConfig,
    /// The variant.
    pub variant: VariantSpec,
    /// The name used in reports and PGN.
    pub name: String,
    /// The communication log, if any.
    pub log: Option<Log>,
    client: Option<Box<dyn Client>>,
}

impl Seat {
    /// A seat whose engine starts on first use.
    pub fn new(cfg: EngineConfig, variant: &VariantSpec, name: String, log: Option<Log>) -> Seat {
        Seat {
            cfg,
            variant: variant.clone(),
            name,
            log,
            client: None,
        }
    }

    /// The running engine, started (and initialised) if it is not running.
    ///
    /// Errors: it could not be started or did not complete its handshake.
    pub fn client(&mut self) -> Result<&mut Box<dyn Client>, String> {
        if self.client.is_none() {
            self.client = Some(start(
                &self.cfg,
                &self.variant,
                &self.name,
                self.log.clone(),
            )?);
        }
        self.client
            .as_mut()
            .ok_or_else(|| "engine not running".to_string())
    }

    /// The engine, if it is running.
    pub fn running(&mut self) -> Option<&mut Box<dyn Client>> {
        self.client.as_mut()
    }

    /// Stops the engine (it is started again on next use).
    pub fn stop(&mut self) {
        self.client = None;
    }

    /// After a game: keep the engine unless it asked for a restart per game.
    pub fn after_game(&mut self) {
        if self.client.as_ref().is_some_and(|c| !c.reusable()) {
            self.client = None;
        }
    }
}

/// Starts an engine and completes its protocol's handshake.
///
/// Errors: the program could not be run, or the handshake failed.
pub fn start(
    cfg: &EngineConfig,
    variant: &VariantSpec,
    name: &str,
    log: Option<Log>,
) -> Result<Box<dyn Client>, String> {
    let launch = Launch {
        argv: cfg.argv.clone(),
        dir: cfg.dir.clone(),
    };
    let p = Process::spawn(&launch, name, log)
        .map_err(|e| format!("cannot run `{}`: {e}", cfg.argv.join(" ")))?;
    match cfg.proto {
        Proto::Uci => Uci::start(p, cfg, variant, name).map(|c| Box::new(c) as Box<dyn Client>),
        Proto::Usi => Usi::start(p, cfg, variant, name).map(|c| Box::new(c) as Box<dyn Client>),
        Proto::Cecp => {
            Cecp::start(p, cfg, &variant.name, name).map(|c| Box::new(c) as Box<dyn Client>)
        }
    }
    .map_err(|f| format!("{name} did not start: {f}"))
}
