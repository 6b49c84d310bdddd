import journal from './meta/_journal.json';
import m0000 from './0000_fleet.sql';
import m0001 from './0001_without_rowid.sql';
import m0002 from './0002_systems_site_index.sql';
import m0003 from './0003_history_days.sql';
import m0004 from './0004_losses.sql';
import m0005 from './0005_packed_points.sql';
import m0006 from './0006_shards.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006
    }
  }
  