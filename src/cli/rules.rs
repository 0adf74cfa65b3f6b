//! Which game, under which settings, a position was read as. A Pods
//! position line does not carry its variant, so every answer of `analyse`
//! and `solve` says how it read the position: the game, its variant where
//! it has variants, and the settings that are not their defaults.

use std::fmt;

use super::analysis::json_string;
use crate::games::registry::{Registry, Selected};

/// The game a position was read as, and the settings that say how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadAs {
    /// The game's name, as `--game` takes it.
    pub game: &'static str,
    /// The value of the game's variant parameter, where it has one.
    pub variant: Option<String>,
    /// The other parameters whose values are not their defaults, by name.
    pub settings: Vec<(&'static str, String)>,
}

impl ReadAs {
    /// How `selected` reads positions.
    pub fn of(registry: &Registry, selected: &Selected) -> ReadAs {
        let game = &registry.games()[selected.index];
        let variant_parameter = game.variant_parameter();
        let mut read_as = ReadAs { game: game.name(), variant: None, settings: Vec::new() };
        for parameter in game.parameters() {
            let value = selected.values.text(parameter.name);
            if Some(parameter.name) == variant_parameter {
                read_as.variant = Some(value.to_string());
            } else if value != parameter.default {
                read_as.settings.push((parameter.name, value.to_string()));
            }
        }
        read_as
    }

    /// The fields of a JSON object that say it: `"game":"pods","variant":"advanced"`,
    /// then `"settings":{"PlacementLiberty":"true"}` when some are not the defaults.
    pub fn json_fields(&self) -> String {
        let mut fields = format!("\"game\":{}", json_string(self.game));
        if let Some(variant) = &self.variant {
            fields.push_str(&format!(",\"variant\":{}", json_string(variant)));
        }
        if !self.settings.is_empty() {
            let settings: Vec<String> = self
                .settings
                .iter()
                .map(|(name, value)| format!("{}:{}", json_string(name), json_string(value)))
                .collect();
            fields.push_str(&format!(",\"settings\":{{{}}}", settings.join(",")));
        }
        fields
    }
}

/// `pods, variant advanced, PlacementLiberty true`.
impl fmt::Display for ReadAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.game)?;
        if let Some(variant) = &self.variant {
            write!(f, ", variant {variant}")?;
        }
        for (name, value) in &self.settings {
            write!(f, ", {name} {value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_names_the_game_its_variant_and_the_settings_changed() {
        let registry = Registry::builtin();
        let pods = registry.select(None, &[("Variant", "advanced"), ("PlacementLiberty", "true")]).unwrap();
        let read_as = ReadAs::of(&registry, &pods);
        assert_eq!(read_as.to_string(), "pods, variant advanced, PlacementLiberty true");
        assert_eq!(
            read_as.json_fields(),
            "\"game\":\"pods\",\"variant\":\"advanced\",\"settings\":{\"PlacementLiberty\":\"true\"}"
        );
        let standard = ReadAs::of(&registry, &registry.select(None, &[]).unwrap());
        assert_eq!(standard.json_fields(), "\"game\":\"pods\",\"variant\":\"standard\"");
        let poldr = ReadAs::of(&registry, &registry.select(Some("poldr"), &[("Size", "6")]).unwrap());
        assert_eq!((poldr.to_string().as_str(), poldr.variant), ("poldr, Size 6", None));
    }
}
