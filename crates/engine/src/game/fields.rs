//! The first edition's farm rule, a second field procedure selected by
//! [`tegula_ruleset::FieldRule::PerCity`]: every completed city bordered by a field with farmers
//! is scored once, to the farmer majority over all the fields that border it.

use std::collections::BTreeMap;

use tegula_ruleset::FeatureKind;

use super::{find, Event, Game};

impl Game {
    /// Score the fields at the end by the first edition's rule: for each completed city, the
    /// strengths of each seat's farmers on the fields bordering it are summed (each field once),
    /// and the strongest seats score the field value with one city (ties all score; no farmers,
    /// no score).
    pub(super) fn score_fields_per_city(&mut self) {
        // Completed city root → the field roots bordering it that hold farmers (in city order).
        let mut cities: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        let mut buf = std::mem::take(&mut self.tmp.buf);
        for i in 0..self.board.meeples.len() {
            let root = find(&mut self.board.segs, self.board.meeples[i].seg);
            let s = self.board.segs[root as usize];
            if s.kind != FeatureKind::Field || s.done {
                continue;
            }
            self.board.segs[root as usize].done = true;
            self.bordered_cities(root, &mut buf);
            for &c in &buf {
                cities.entry(c).or_default().push(root);
            }
        }
        for fields in cities.into_values() {
            let mut strength = [0u32; 32];
            for &field in &fields {
                self.add_farmer_strength(field, &mut strength);
            }
            // The event names a field (the points are field points), the first one found; its
            // value with one city is what the city pays.
            let (per_city, cited) = self.field_value_per_city(fields[0], &mut buf);
            // The data's final scoring rule, unless the field's value cites its own.
            let rule = cited.unwrap_or(self.rules.scoring_rule(false)).to_string();
            self.award_city(fields[0], (per_city, &rule), &strength, &mut buf);
            if self.rules.any_payment {
                // A modifier figure on any field bordering the city adds its value for one city.
                self.tmp.buf = std::mem::take(&mut buf);
                for &field in &fields {
                    self.pay_modifiers(field, &strength, Some(1));
                }
                buf = std::mem::take(&mut self.tmp.buf);
            }
        }
        self.tmp.buf = buf;
    }

    /// Completed cities bordered by the field rooted at `root` of which some segment carries
    /// tag `tag`, each once (`cities(TAG)` in a value; walked only when a value reads it).
    pub(super) fn bordered_cities_with(&self, root: u32, tag: u32, buf: &mut Vec<u32>) -> u32 {
        self.bordered_cities(root, buf);
        buf.iter().filter(|&&c| self.tag_count(c, tag) > 0).count() as u32
    }

    /// Add each seat's figure strengths on the field rooted at `field` to `strength` (B-5).
    fn add_farmer_strength(&mut self, field: u32, strength: &mut [u32; 32]) {
        for i in 0..self.board.meeples.len() {
            let m = self.board.meeples[i];
            if self.on_feature(m.seg, field) {
                let seat = &mut strength[m.player as usize];
                *seat = seat.saturating_add(self.strength_of(m.ftype, field));
            }
        }
    }

    /// Give `points` for one city to the seats of greatest `strength`, citing its rule; the
    /// score event names the field rooted at `field`, one of those bordering the city.
    fn award_city(
        &mut self,
        field: u32,
        points: (u32, &str),
        strength: &[u32; 32],
        buf: &mut Vec<u32>,
    ) {
        let (points, rule) = points;
        let winners = self.pay_best(strength, points);
        // `pay_best` names the seats only when the game records, and none when no farmer
        // stands on the city's fields (no score, no event).
        if winners.is_empty() {
            return;
        }
        let feature = self.info(field, buf);
        self.log.events.push(Event::Score {
            turn: self.now.turn,
            rule: rule.to_string(),
            players: winners,
            points,
            feature,
        });
    }
}
