import { buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import type { DatabaseHandle } from '@platform/db';
import { buildApp as buildMainApi, createAvatarStorage, loadMainApiConfig } from '@platform/main-api';
import { backendApiEnv, type LocalSettings, localUrl, mainApiEnv } from './service-env.js';

export interface RunningServices {
  mainUrl: string;
  backendUrl: string;
  stop(): Promise<void>;
}

/** Both services in this process on the one embedded database (PGlite allows a single process). */
export async function startInProcess(database: DatabaseHandle, settings: LocalSettings): Promise<RunningServices> {
  const mainConfig = loadMainApiConfig(mainApiEnv(settings));
  const backendConfig = loadBackendApiConfig(backendApiEnv(settings));

  const backendApi = buildBackendApi({ database }, backendConfig);
  const backendUrl = localUrl(await backendApi.listen({ host: settings.host, port: backendConfig.port }));
  const mainApi = buildMainApi(
    { database, storage: createAvatarStorage(mainConfig.avatars.storage, mainConfig.publicUrl) },
    mainConfig,
  );
  const mainUrl = localUrl(await mainApi.listen({ host: settings.host, port: mainConfig.port }));

  return {
    mainUrl,
    backendUrl,
    async stop() {
      await Promise.allSettled([mainApi.close(), backendApi.close()]);
      await database.close();
    },
  };
}
